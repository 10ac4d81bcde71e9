// The safety stages end to end: the real CLI against the real sandbox, with a state directory per test.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, fixture } from '../helpers/cli.js';
import { id, range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { auditLines, keyDir, latestSnapshot, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await sb?.stop();
  await server?.close();
  sb = server = undefined;
});

function upload(s: TestSandbox, file: string, ...flags: string[]) {
  return runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', s.stateDir, ...flags], { env: s.env });
}
const snapshotOf = (s: TestSandbox, url = s.url) => latestSnapshot(s.stateDir, url)!;
const auditOf = (s: TestSandbox) => auditLines(s.stateDir, s.url);

describe('a sequence of uploads that grows and shrinks the set', () => {
  it('diffs against the last upload and holds removals to 10 % unless given the exact count or a share', async () => {
    sb = await sandbox();
    const files = sb.dir;

    let r = await upload(sb, writeMembers(files, 'a.csv', range(1, 20)));
    expect(r.code).toBe(0);
    expect(r.json().diff).toMatchObject({ baseline: 'none', added: null, removed: null });
    expect(await sb.stored(TEAM)).toHaveLength(20);

    r = await upload(sb, writeMembers(files, 'b.csv', range(1, 25), [7]));
    expect(r.code).toBe(0);
    expect(r.json().diff).toMatchObject({ baseline: 'snapshot', added: 5, removed: 0, changed: 1, unchanged: 19 });
    expect(r.json().diff.examples.changed[0]).toEqual({ key: id(7), changes: [{ field: 'name', before: 'Member 7', after: 'Renamed 7' }] });

    // 2 of 25 is 8 %: within the default.
    r = await upload(sb, writeMembers(files, 'c.csv', range(1, 23)));
    expect(r.code).toBe(0);
    expect(r.json().diff).toMatchObject({ removed: 2, changed: 1 });

    // 3 of 23 is 13 %: refused, in the dry run as in the real run, and nothing is sent or recorded.
    const snapshot = readFileSync(snapshotOf(sb));
    const shrunk = writeMembers(files, 'd.csv', range(1, 20));
    const dry = await runCli(['team-members', shrunk, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    r = await upload(sb, shrunk);
    for (const run of [dry, r]) {
      expect(run.code).toBe(4);
      expect(run.json()).toMatchObject({ outcome: 'refused', exitCode: 4, diff: { removed: 3 }, error: { code: 'TOO_MANY_REMOVALS' } });
      expect(run.json().error.message).toContain(`${id(21)}, ${id(22)}, ${id(23)}`);
      expect(run.json().error.hint).toContain('--max-removals 3');
      expect(run.stderr).toContain('run again with --max-removals 3');
    }
    expect(await sb.stored(TEAM)).toHaveLength(23);
    expect(readFileSync(snapshotOf(sb)).equals(snapshot), 'the snapshot is byte for byte as it was').toBe(true);
    expect(auditOf(sb)).toHaveLength(3);

    expect((await upload(sb, shrunk, '--max-removals', '2')).code).toBe(4);
    r = await upload(sb, shrunk, '--max-removals', '3');
    expect(r.code).toBe(0);
    expect(await sb.stored(TEAM)).toHaveLength(20);

    // 5 of 20 is 25 %: the percentage form.
    const quarter = writeMembers(files, 'e.csv', range(1, 15));
    r = await upload(sb, quarter, '--max-removals', '24%');
    expect(r.code).toBe(4);
    expect(r.json().error.hint).toContain('--max-removals 5');
    r = await upload(sb, quarter, '--max-removals', '25%');
    expect(r.code).toBe(0);
    expect(await sb.stored(TEAM)).toHaveLength(15);

    // The snapshot is exactly what the service stores now.
    expect(JSON.parse(readFileSync(snapshotOf(sb), 'utf8'))).toEqual(await sb.stored(TEAM));
  });
});

describe('an empty upload', () => {
  it('is refused unless --allow-empty, and the removal guard still needs the exact count', async () => {
    sb = await sandbox();
    const empty = writeMembers(sb.dir, 'empty.csv', []);
    let r = await upload(sb, empty);
    expect(r.code).toBe(4);
    expect(r.json().error).toMatchObject({ code: 'EMPTY_UPLOAD', hint: expect.stringContaining('--allow-empty') });

    expect((await upload(sb, writeMembers(sb.dir, 'three.csv', range(1, 3)))).code).toBe(0);
    r = await upload(sb, empty, '--allow-empty');
    expect(r.code).toBe(4);
    expect(r.json().error).toMatchObject({ code: 'TOO_MANY_REMOVALS', hint: expect.stringContaining('--max-removals 3') });
    expect(await sb.stored(TEAM)).toHaveLength(3);

    r = await upload(sb, empty, '--allow-empty', '--max-removals', '3');
    expect(r.code).toBe(0);
    expect(r.json().response.message).toBe('0 team member(s) uploaded');
    expect(await sb.stored(TEAM)).toEqual([]);
    expect(readFileSync(snapshotOf(sb), 'utf8')).toBe('[]');
  });
});

describe('flags and baselines', () => {
  it('refuses a bad --max-removals as a usage error, before anything is read or sent', async () => {
    sb = await sandbox();
    const r = await upload(sb, writeMembers(sb.dir, 'a.csv', range(1, 3)), '--max-removals', 'lots');
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'BAD_FLAG', message: expect.stringContaining('--max-removals') } });
    expect(await sb.stored(TEAM)).toEqual([]);
  });

  it('compares with --baseline FILE in any format, with no base URL needed for a dry run', async () => {
    const t = tempDir();
    const old = t.write(
      'old.json',
      JSON.stringify(range(1, 10).map((n) => ({ employeeID: id(n), email: `m${n}@example.com`, name: `Member ${n}`, roleCode: '3', parentKey: 'STORE-001' }))),
    );
    const now = writeMembers(t.dir, 'now.csv', [...range(1, 9), 11]);
    let r = await runCli(['team-members', now, '--dry-run', '--no-baseline', '--json', '--baseline', old]);
    expect(r.code).toBe(0);
    expect(r.json().diff).toMatchObject({ baseline: 'file', added: 1, removed: 1, changed: 0, unchanged: 9 });
    r = await runCli(['team-members', writeMembers(t.dir, 'less.csv', range(1, 8)), '--dry-run', '--no-baseline', '--baseline', old]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Changes against the baseline file, 10 team members: +0 −2 ~0 =8');
    expect(r.stderr).toContain('--max-removals 2');
  });

  it('says plainly that there is no baseline, and that the removal guard cannot apply', async () => {
    const t = tempDir();
    const r = await runCli(['team-members', writeMembers(t.dir, 'a.csv', range(1, 3)), '--dry-run', '--no-baseline']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Changes: no baseline to compare with');
    expect(r.stderr).toContain('the removal guard (--max-removals) cannot apply');
  });

  it('stops at a damaged snapshot, naming it and what to do', async () => {
    sb = await sandbox();
    expect((await upload(sb, writeMembers(sb.dir, 'a.csv', range(1, 3)))).code).toBe(0);
    writeFileSync(snapshotOf(sb), '[{"employeeID":"E0001"');
    const r = await upload(sb, writeMembers(sb.dir, 'b.csv', range(1, 3)));
    expect(r.code).toBe(4);
    expect(r.json().error).toMatchObject({ code: 'SNAPSHOT_CORRUPT', hint: expect.stringContaining('--baseline FILE') });
    expect(r.json().error.message).toMatch(/upload #1 of team-members to .* is damaged \(its bytes do not match their sha256\)/);
  });

  it("checks team members' parentKeys against the store cards last uploaded to the same address", async () => {
    sb = await sandbox();
    expect((await runCli(['store-cards', fixture('store-cards.csv'), '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    const t = tempDir();
    const file = t.write('tm.csv', 'employeeID,email,name,roleCode,parentKey\nE1,a@example.com,A,,STORE-001\nE2,b@example.com,B,,STORE-404\n');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.json().issues).toEqual([expect.objectContaining({ code: 'UNKNOWN_PARENT', line: 3, value: 'STORE-404' })]);
  });
});

describe('a failed upload', () => {
  it('leaves the snapshot alone, and the audit log says what happened', async () => {
    sb = await sandbox();
    expect((await upload(sb, writeMembers(sb.dir, 'a.csv', range(1, 10)))).code).toBe(0);
    const snapshot = readFileSync(snapshotOf(sb));
    const next = writeMembers(sb.dir, 'b.csv', range(1, 11));

    let r = await runCli(['team-members', next, '--yes', '--no-baseline', '--json', '--state', sb.stateDir], {
      env: { ...sb.env, UPLOAD_TOKEN: 'wrong-token' },
    });
    expect(r.code).toBe(5);
    expect(readFileSync(snapshotOf(sb)).equals(snapshot), 'the snapshot is byte for byte as it was').toBe(true);

    const url = sb.url;
    await sb.close();
    r = await upload(sb, next, '--retries', '0');
    expect(r.code).toBe(6);
    expect(readFileSync(snapshotOf(sb, url)).equals(snapshot), 'the snapshot is byte for byte as it was').toBe(true);

    const lines = auditOf(sb);
    expect(lines.map((l) => [l.outcome, l.status, l.generation])).toEqual([
      ['uploaded', 200, 1],
      ['rejected', 401, null],
      [expect.stringMatching(/^(unreachable|unknown)$/), null, null],
    ]);
    expect(lines[1]).toMatchObject({ count: 11, error: 'UNAUTHORIZED', diff: { baseline: 'snapshot', added: 1, removed: 0 } });
    expect(existsSync(lockOf(sb.stateDir, sb.url))).toBe(false);
  });
});

describe('the audit log', () => {
  it('has one line per upload with the sha256 of the bytes the service received, and never the token', async () => {
    server = await scriptedServer([{ ok: true }]);
    const t = tempDir();
    const stateDir = join(t.dir, 'state');
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url };
    const file = writeMembers(t.dir, 'a.csv', range(1, 500));
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', stateDir], { env });
    expect(r.code).toBe(0);

    const [entry, ...more] = auditLines(stateDir, server.url);
    expect(more).toEqual([]);
    const body = server.requests[0]!.body;
    expect(entry).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      user: expect.any(String),
      host: expect.any(String),
      pid: expect.any(Number),
      kind: 'team-members',
      baseUrl: server.url,
      source: file,
      count: 500,
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
      baseGeneration: 0,
      diff: { baseline: 'none', added: null, removed: null, changed: null, unchanged: null },
      outcome: 'uploaded',
      status: 200,
      error: null,
      generation: 1,
    });
    // The snapshot holds the very bytes that were sent.
    const snapshot = latestSnapshot(stateDir, server.url)!;
    expect(readFileSync(snapshot).equals(body), 'the snapshot holds the very bytes sent').toBe(true);
    for (const name of [join(keyDir(stateDir, server.url), 'audit.jsonl'), snapshot]) expect(readFileSync(name, 'utf8')).not.toContain(TOKEN);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(existsSync(lockOf(stateDir, server.url))).toBe(false);
  });
});
