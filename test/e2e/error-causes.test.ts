// A failure keeps what caused it (`{ cause }`): PostgreSQL's SQLSTATE, severity and detail, the system's
// errno code and syscall. The message a person reads stays one sentence with what to do next;
// UPLOAD_DEBUG=1 adds the chain under it on stderr, redacted (no token, no notification URL, no
// database password), and leaves the --json report on stdout as it is.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CANARY, expectNoCanary, FAST_RETRIES } from '../helpers/canary.js';
import { fixture, runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const { deadUrl } = serversForFile();
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const debugLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('upload: debug:'));

describe('UPLOAD_DEBUG=1 prints the chain of causes', () => {
  it("PostgreSQL's refusal: its SQLSTATE, severity and message under the tool's code; the password masked", async () => {
    sb = await sandbox();
    const db = await freshDatabase();
    const role = `r_${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await asAdmin(db, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await asAdmin(db, `REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    const url = new URL(db);
    url.username = role;
    url.password = password;
    const args = ['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--yes', '--no-baseline', '--json', '--state', url.href];

    const plain = await runCli(args, { env: sb.env });
    expect(plain.json()).toMatchObject({ exitCode: 2, error: { code: 'STATE_UNUSABLE' } });
    expect(debugLines(plain.stderr)).toEqual([]);

    const debug = await runCli(args, { env: { ...sb.env, UPLOAD_DEBUG: '1' } });
    // The report is the same document; the chain goes to stderr only.
    expect(debug.json()).toEqual(plain.json());
    const lines = debugLines(debug.stderr);
    expect(lines[0]).toMatch(/^upload: debug: STATE_UNUSABLE UsageError: the state tables are missing in .* may not create them/);
    expect(lines.slice(1).join('\n')).toMatch(/^upload: debug: {5}cause: 42501 error: permission denied for schema public \(severity ERROR/m);
    expect(debug.stderr).not.toContain(password);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });

  it("a system error: the connection's errno, syscall and address; no token or notification URL anywhere", async () => {
    const dead = await deadUrl();
    const notify = `${await deadUrl()}/hooks/secret-path-3f9a1c`;
    const state = tempDir().dir;
    const r = await runCli(
      ['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--retries', '0', '--state', state, '--base-url', dead, '--notify', notify],
      { env: { UPLOAD_TOKEN: CANARY, UPLOAD_DEBUG: '1' }, tuning: FAST_RETRIES },
    );
    expect(r.code).toBe(6);
    const lines = debugLines(r.stderr);
    expect(lines[0]).toMatch(/^upload: debug: UNREACHABLE ServiceUnreachable: .*ECONNREFUSED/);
    expect(lines[1]).toMatch(
      /^upload: debug: {3}cause: ECONNREFUSED Error: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(syscall connect, address 127\.0\.0\.1, port \d+\)$/,
    );
    expect(r.stderr).not.toContain('secret-path-3f9a1c');
    expectNoCanary([r.stdout, r.stderr], [state]);
  });

  it("a file that cannot be read: the system's code and path under CANNOT_READ", async () => {
    const missing = join(tempDir().dir, 'staff.csv');
    const r = await runCli(['team-members', missing, '--dry-run', '--no-baseline'], { env: { UPLOAD_DEBUG: '1' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`upload: ${missing}: cannot read the file: no such file`);
    expect(debugLines(r.stderr)).toEqual([
      `upload: debug: CANNOT_READ InputError: ${missing}: cannot read the file: no such file`,
      expect.stringMatching(
        new RegExp(`^upload: debug: {3}cause: ENOENT Error: ENOENT: no such file or directory, open '${missing}' \\(syscall open, path ${missing}\\)$`),
      ),
    ]);
  });
});
