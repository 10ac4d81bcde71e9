// Codes no other test met (issue 43: every code a script may key on is produced by a real run that
// asserts it). Dry runs need no service; the rest run against a scripted server or start the sandbox.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { TOKEN } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir();
const dryRun = (kind: string, name: string, content: string, ...flags: string[]) =>
  runCli([kind, tmp.write(name, content), '--dry-run', '--no-baseline', '--json', '--state', join(tmp.dir, 'state'), ...flags]);

const member = { employeeID: 'E1', email: 'e1@example.com', name: 'Anna Berg', roleCode: null, parentKey: null };
const card = (hours: unknown) => ({ nodeKey: 'S1', email: 's1@example.com', storeConceptCode: 1, opentToGuestsPeriod: hours });

describe('issues of the file, each on a dry run that stops (exit 3) or goes on', () => {
  // A header with no records goes on to the empty-upload guard (exit 4); a note alone lets the dry run pass.
  it.each([
    ['NO_RECORDS', 'team-members', 'header.csv', 'employeeID,email,name,roleCode\n', 'warning', 4],
    ['FORMULA_LIKE', 'team-members', 'formula.csv', 'employeeID,email,name,roleCode\nE1,e1@example.com,=Anna Berg,10\n', 'warning', 0],
    ['TOO_MANY_CELLS', 'team-members', 'long.csv', 'employeeID,email,name,roleCode\nE1,e1@example.com,Anna Berg,10,extra\n', 'error', 3],
    ['WRONG_TYPE', 'team-members', 'type.json', JSON.stringify([{ ...member, name: true }]), 'error', 3],
    ['HOURS_ORDER', 'store-cards', 'order.json', JSON.stringify([card({ '1': { since: 20, to: 10 } })]), 'error', 3],
    ['HOURS_OUT_OF_RANGE', 'store-cards', 'range.json', JSON.stringify([card({ '1': { since: 3, to: 10 } })]), 'error', 3],
  ])('%s', async (code, kind, name, content, severity, exitCode) => {
    const report = (await dryRun(kind, name, content)).json();
    expect(report.issues).toContainEqual(expect.objectContaining({ code, severity }));
    expect(report.exitCode).toBe(exitCode);
  });
});

describe('refusals before anything is read or sent', () => {
  it('STDIN_TWICE: the records and the baseline both from standard input', async () => {
    const r = await runCli(['team-members', '-', '--baseline', '-', '--dry-run', '--json', '--state', join(tmp.dir, 'state')], {
      input: 'employeeID,email,name,roleCode\nE1,e1@example.com,Anna Berg,10\n',
    });
    expect(r.json()).toMatchObject({ exitCode: 2, outcome: 'usage-error', error: { code: 'STDIN_TWICE', hint: expect.stringContaining('--baseline FILE') } });
  });

  it('WORKBOOK_UNREADABLE: a file whose first bytes are a zip, and the rest is not a workbook', async () => {
    const r = await dryRun('team-members', 'damaged.xlsx', 'PK\u0003\u0004 this is not a workbook, only its first four bytes are');
    expect(r.json()).toMatchObject({
      exitCode: 3,
      outcome: 'invalid',
      error: { code: 'WORKBOOK_UNREADABLE', message: expect.stringContaining('damaged.xlsx') },
    });
  });

  it('NO_PENDING: `state resolve` with no upload waiting to be settled', async () => {
    const state = join(tmp.dir, 'resolve-state');
    const r = await runCli(['state', 'resolve', 'team-members', '--sent', '--state', state, '--base-url', 'http://127.0.0.1:9', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: { code: 'NO_PENDING' } });
  });

  it('PLAN_UNRECORDED: approving a plan made for an address that needs no approvals', async () => {
    const state = join(tmp.dir, 'plan-state');
    const plan = join(tmp.dir, 'plain.plan.json');
    const address = ['--base-url', 'http://127.0.0.1:9', '--state', state];
    const file = tmp.write('plan.csv', 'employeeID,email,name,roleCode\nE1,e1@example.com,Anna Berg,10\n');
    const made = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--plan-out', plan, '--json', ...address]);
    expect(made.json()).toMatchObject({ exitCode: 0, outcome: 'dry-run' });
    const r = await runCli(['approve', plan, '--yes', '--json', ...address], { env: { UPLOAD_TOKEN: TOKEN } });
    expect(r.json()).toMatchObject({ exitCode: 4, outcome: 'refused', error: { code: 'PLAN_UNRECORDED' } });
  });
});

describe('the service', () => {
  // A 5xx the tool does not retry (a 503 that stays is UNREACHABLE after the retries, its answer kept).
  it('SERVER_ERROR: a service that fails with 507, once (exit 6), its answer kept', async () => {
    const server = await scriptedServer(() => ({ status: 507, body: { message: 'out of storage' } }));
    const file = tmp.write('send.csv', 'employeeID,email,name,roleCode\nE1,e1@example.com,Anna Berg,10\n');
    const r = await runCli(
      ['team-members', file, '--yes', '--no-baseline', '--json', '--retries', '1', '--base-url', server.url, '--state', join(tmp.dir, 'send-state')],
      { env: { UPLOAD_TOKEN: TOKEN }, tuning: { baseMs: 1, capMs: 1 } },
    );
    expect(r.json()).toMatchObject({
      exitCode: 6,
      outcome: 'unreachable',
      error: { code: 'SERVER_ERROR' },
      response: { status: 507, message: 'out of storage' },
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe('the sandbox refuses to start (exit 2; it has no --json, so UPLOAD_DEBUG=1 names the code)', () => {
  const env = { SANDBOX_TOKEN: TOKEN, UPLOAD_DEBUG: '1' };
  let taken: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve())));

  it('SANDBOX_NOT_LOOPBACK: a --host other machines can reach, without --allow-remote', async () => {
    const r = await runCli(['sandbox', '--host', '0.0.0.0', '--port', '0'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upload: debug: SANDBOX_NOT_LOOPBACK');
    expect(r.stderr).toContain('--allow-remote');
  });

  it('SANDBOX_CANNOT_LISTEN: a port another server holds', async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken!.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const r = await runCli(['sandbox', '--port', String(port)], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upload: debug: SANDBOX_CANNOT_LISTEN');
    expect(r.stderr).toContain('--port 0');
  });

  it('SANDBOX_DATA_INVALID: a set in --data-dir the contract does not accept', async () => {
    const data = tempDir();
    data.write('teamMembers.json', JSON.stringify([{ employeeID: 'E1' }]));
    const r = await runCli(['sandbox', '--port', '0', '--data-dir', data.dir], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upload: debug: SANDBOX_DATA_INVALID');
  });
});
