// A service that refuses says why: its `message` and `errors[]` (index → the file's line and key) reach
// the person on screen, in `--json` under the error, and in the history — bounded, and as plain text
// (a terminal escape in an answer is shown, never obeyed).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TOKEN } from '../helpers/sandbox.js';
import { serversForFile } from '../helpers/scripted-server.js';

const serve = serversForFile().serve;

describe("the service's own reasons", () => {
  it('reach the screen, the JSON report and the history, located in the file', async () => {
    const errors = [
      { index: 1, field: 'email', message: 'e-mail already in use by another account' },
      { index: 0, path: 'name', message: 'red \u001b[31malert\u001b[0m' },
      ...Array.from({ length: 30 }, (_, i) => ({ index: 2, field: 'roleCode', message: `problem ${i}` })),
    ];
    const server = await serve({ status: 400, body: { message: 'invalid', status: 400, errors } });
    const dir = mkdtempSync(join(tmpdir(), 'su-reasons-'));
    const file = join(dir, 'staff.csv');
    writeFileSync(file, 'employeeID,email,name\n\nE1,one@example.com,One\nE2,two@example.com,Two\nE3,three@example.com,Three\n');
    const state = join(dir, 'state');
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url };
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', state], { env });
    expect(r.code).toBe(5);
    // On screen: the service's message, each reason by line and key, the escape shown as text.
    expect(r.stderr).toContain('rejected the upload with 400: "invalid". The service said:');
    expect(r.stderr).toContain('line 4, key "E2", email: e-mail already in use by another account');
    expect(r.stderr).toContain('line 3, key "E1", name: red \\u001b[31malert\\u001b[0m');
    expect(r.stderr).not.toContain('\u001b[31malert');
    expect(r.stderr).toContain('… and 22 more');
    // In --json, under the error.
    const report = r.json();
    expect(report.error.code).toBe('REJECTED');
    expect(report.error.service).toMatchObject({ message: 'invalid', errorCount: 32 });
    expect(report.error.service.errors).toHaveLength(20);
    expect(report.error.service.errors[0]).toEqual({ index: 1, field: 'email', message: 'e-mail already in use by another account', line: 4, key: 'E2' });
    // In the history, under the failed attempt, text and JSON.
    const history = await runCli(['history', 'team-members', '--state', state], { env });
    expect(history.stdout).toMatch(
      /✗ .* 3 records: rejected \(REJECTED, HTTP 400\)\n {10}the service said: "invalid"\n {10}line 4, key "E2", email: e-mail already in use/,
    );
    const json = (await runCli(['history', 'team-members', '--state', state, '--json'], { env })).json();
    expect(json.failedBefore[0].said.errors[0]).toMatchObject({ line: 4, key: 'E2' });
  });

  it('a 5xx that keeps failing keeps its reasons too', async () => {
    const server = await serve({ status: 503, body: { message: 'maintenance until 04:00', status: 503 } });
    const dir = mkdtempSync(join(tmpdir(), 'su-reasons-'));
    const file = join(dir, 'staff.csv');
    writeFileSync(file, 'employeeID,email,name\nE1,one@example.com,One\n');
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--retries', '0', '--state', join(dir, 'state')], {
      env: { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url },
    });
    expect(r.code).toBe(6);
    expect(r.json().error.service).toEqual({ message: 'maintenance until 04:00', errors: [], errorCount: 0 });
  });
});
