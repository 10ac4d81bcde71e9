// --notify: after a run, a JSON summary posted to a webhook (here a real node:http server on loopback):
// what it says, what it never says (names, emails, the token, its own address), and that a dead or slow
// endpoint costs a warning and a few seconds at most, never the run's exit code.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { serversForFile } from '../helpers/scripted-server.js';

const servers = serversForFile();
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/** A webhook address with a credential in its path, as Slack's and Teams' are. */
const hook = (url: string) => `${url}/services/T0SECRET/B0SECRET/xoxSecretPathPart123`;
const FAST = { attemptMs: 300, retryAfterMs: 50 };

/** A loopback port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

describe('a notification after a run', () => {
  it('says what happened to a refused run, with counts and codes only', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    const first = writeMembers(sb.dir, 'all.csv', range(1, 20));
    expect((await runCli(['team-members', first, '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    const cut = writeMembers(sb.dir, 'cut.csv', range(1, 10));
    const url = hook(webhook.url);
    const page = join(sb.dir, 'night.html');
    const r = await runCli(['team-members', cut, '--yes', '--json', '--state', sb.stateDir, '--notify', url, '--report-html', page], {
      env: { ...sb.env, UPLOAD_HOST: 'sync-01' },
    });
    expect(r.code).toBe(4);
    expect(webhook.requests).toHaveLength(1);
    const req = webhook.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/services/T0SECRET/B0SECRET/xoxSecretPathPart123');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    const body = req.body.toString('utf8');
    const sent = JSON.parse(body) as Record<string, any>;
    expect(sent).toMatchObject({
      kind: 'team-members',
      command: 'team-members',
      outcome: 'refused',
      exitCode: 4,
      errorCode: 'TOO_MANY_REMOVALS',
      counts: { records: 10, added: 0, removed: 10, changed: 0, unchanged: 10, issues: 0 },
      generation: null,
      host: 'sync-01',
      target: null,
    });
    expect(sent.guards).toContainEqual({ guard: 'TOO_MANY_REMOVALS', verdict: 'refused', numbers: { count: 10, limit: 2 } });
    expect(sent.verdict).toBe('refused');
    expect(sent.service).toBe(new URL(sb.url).host);
    expect(sent.next.command).toBe(`upload team-members ${cut} --state ${sb.stateDir} --report-html ${page} --dry-run`);
    expect(sent.text).toMatch(
      /^🛑 127\.0\.0\.1:\d+: team members full upload refused, nothing sent \(exit 4, TOO_MANY_REMOVALS\) · 10 records, \+0 −10 ~0 · next: upload team-members .* --dry-run · on sync-01, \d+\.\d s$/,
    );
    expect(typeof sent.durationMs).toBe('number');
    // No personal data, no token, not its own address.
    expect(body).not.toMatch(/@example\.com|Member|E000/);
    expect(body).not.toContain(TOKEN);
    expect(body).not.toContain('xoxSecretPathPart123');
    // Nor does the address appear in anything the run printed.
    expect(r.stdout + r.stderr).not.toContain('xoxSecretPathPart123');
    // The review page names the command as typed, the address redacted.
    expect(readFileSync(page, 'utf8')).toContain('--notify *** --report-html');
  });

  it('stays quiet on success by default, and speaks with --notify-on change or always', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 204 });
    const file = writeMembers(sb.dir, 'a.csv', range(1, 5));
    const base = ['team-members', file, '--yes', '--no-baseline', '--state', sb.stateDir];
    expect((await runCli([...base, '--notify', webhook.url], { env: sb.env })).code).toBe(0);
    expect(webhook.requests).toHaveLength(0);
    // UPLOAD_NOTIFY, several addresses separated by spaces.
    const second = writeMembers(sb.dir, 'b.csv', range(1, 6));
    const r = await runCli(['team-members', second, '--yes', '--state', sb.stateDir, '--notify-on', 'change'], {
      env: { ...sb.env, UPLOAD_NOTIFY: `${webhook.url}/one ${webhook.url}/two` },
    });
    expect(r.code).toBe(0);
    expect(webhook.requests.map((q) => q.url).sort()).toEqual(['/one', '/two']);
    const sent = JSON.parse(webhook.requests[0]!.body.toString('utf8')) as Record<string, any>;
    expect(sent).toMatchObject({ outcome: 'uploaded', exitCode: 0, errorCode: null, generation: 2, counts: { added: 1, removed: 0 } });
    expect(sent.verdict).toBe('success');
    expect(sent.text).toMatch(/^✅ 127\.0\.0\.1:\d+: team members full upload succeeded \(exit 0\) · .* · upload #2 · next: upload history team-members ·/);
    // Nothing changes: --notify-on change is quiet, always is not.
    expect(
      (await runCli(['team-members', second, '--yes', '--state', sb.stateDir, '--notify', webhook.url, '--notify-on', 'change'], { env: sb.env })).code,
    ).toBe(0);
    expect(webhook.requests).toHaveLength(2);
    expect(
      (await runCli(['team-members', second, '--yes', '--state', sb.stateDir, '--notify', webhook.url, '--notify-on', 'always'], { env: sb.env })).code,
    ).toBe(0);
    expect(webhook.requests).toHaveLength(3);
  });

  it('announces held removals as a warning, with the count, never the keys when they are emails', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 200, body: 'ok' });
    // employeeID holds email addresses: the held keys are personal data.
    const rows = (n: number[]) => ['employeeID,email,name', ...n.map((i) => `p${i}@example.com,p${i}@example.com,Person ${i}`)].join('\n') + '\n';
    const all = join(sb.dir, 'all.csv');
    writeFileSync(all, rows(range(1, 50)));
    expect((await runCli(['team-members', all, '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    const cut = join(sb.dir, 'cut.csv');
    writeFileSync(cut, rows(range(1, 10)));
    // The Slack form chosen by the target's setting.
    const config = join(sb.dir, 'upload.config.json');
    writeFileSync(
      config,
      JSON.stringify({ targets: { nightly: { baseUrl: sb.url, notify: [hook(webhook.url)], notifyFormat: 'slack', notifyOn: 'always' } } }),
    );
    const r = await runCli(['team-members', cut, '--yes', '--hold-removals', '--state', sb.stateDir, '--config', config, '--target', 'nightly'], {
      env: { UPLOAD_TOKEN: TOKEN, UPLOAD_HOST: 'sync-01' },
    });
    expect(r.code, r.stderr).toBe(9);
    expect(webhook.requests).toHaveLength(1);
    const body = webhook.requests[0]!.body.toString('utf8');
    expect(body).not.toContain('@example.com');
    expect(body).not.toContain('Person');
    const sent = JSON.parse(body) as { text: string; blocks: { type: string; text?: { text: string }; fields?: { text: string }[] }[] };
    expect(sent.text).toMatch(/^⚠️ nightly \(127\.0\.0\.1:\d+\): team members full upload succeeded, 40 removals held back \(exit 9\)/);
    expect(sent.text).not.toMatch(/❌|refused|failed|unknown/);
    expect(sent.text).toContain('upload #2');
    const fields = sent.blocks[1]!.fields!.map((f) => f.text);
    expect(fields).toContain('*Target*\nnightly');
    expect(fields).toContain('*Held back*\n40 (keys not listed: they look like emails or names)');
    const next = `upload release team-members --target nightly --state ${sb.stateDir} --config ${config} --dry-run`;
    expect(sent.blocks[2]!.text!.text).toContain(next);
    // Followed: the release's dry run lists exactly the 40 held back, and sends nothing.
    const dry = await runCli([...next.split(' ').slice(1), '--json'], { env: { UPLOAD_TOKEN: TOKEN } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({
      outcome: 'dry-run',
      released: { generation: 2, keys: range(11, 50).map((i) => `p${i}@example.com`) },
      diff: { removed: 40 },
    });
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(50);
  });

  it('posts a Teams Adaptive Card with --notify-format teams, and refuses an unknown form', async () => {
    sb = await sandbox();
    const webhook = await servers.serve({ status: 202 });
    const file = join(sb.dir, 'bad.csv');
    writeFileSync(file, 'employeeID,email,name\nE1,not-an-email,A\n');
    const base = ['team-members', file, '--dry-run', '--no-baseline', '--state', sb.stateDir, '--notify', webhook.url];
    const r = await runCli([...base, '--notify-format', 'teams'], { env: sb.env });
    expect(r.code).toBe(3);
    const sent = JSON.parse(webhook.requests[0]!.body.toString('utf8')) as { type: string; attachments: { contentType: string; content: any }[] };
    expect(sent.type).toBe('message');
    expect(sent.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = sent.attachments[0]!.content;
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body[0].text).toMatch(/^❌ 127\.0\.0\.1:\d+: team members full upload dry run failed \(exit 3, INVALID\\_RECORDS\)$/);
    expect(card.body[0].color).toBe('Attention');
    expect(JSON.stringify(card)).not.toContain('not-an-email');
    const bad = await runCli([...base, '--notify-format', 'discord', '--json'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('BAD_FLAG');
    expect(bad.json().error.message).toContain('discord');
    expect(webhook.requests).toHaveLength(1);
  });

  it('warns when the endpoint is dead, after one retry, and keeps the exit code', async () => {
    sb = await sandbox();
    const port = await deadPort();
    const file = join(sb.dir, 'bad.csv');
    writeFileSync(file, 'employeeID,email,name\nE1,not-an-email,A\n');
    const url = `http://127.0.0.1:${port}/hooks/secret-path-abcdef`;
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--state', sb.stateDir, '--notify', url], {
      env: sb.env,
      notifyTiming: FAST,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/warning: the notification to 127\.0\.0\.1:\d+ was not delivered \(ECONNREFUSED\); the run's outcome is unchanged/);
    expect(r.stderr).not.toContain('secret-path-abcdef');
  });

  it('gives up on a slow endpoint within its bound: two attempts, then a warning', async () => {
    sb = await sandbox();
    const slow = await servers.serve({ hang: true });
    const broken = await servers.serve({ status: 500 }, { status: 200 });
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    const r = await runCli(
      ['team-members', file, '--dry-run', '--no-baseline', '--state', sb.stateDir, '--notify', slow.url, '--notify', broken.url, '--notify-on', 'always'],
      { env: sb.env, notifyTiming: FAST },
    );
    expect(r.code).toBe(0);
    // Its bound is the one passed in (0.3 s an attempt); an endpoint that never answers cannot hold the run.
    expect(slow.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/the notification to 127\.0\.0\.1:\d+ was not delivered \(no answer within 0\.3 s\)/);
    // A 500 is retried once, and the retry got through.
    expect(broken.requests).toHaveLength(2);
    expect(r.stderr.match(/was not delivered/g)).toHaveLength(1);
  });

  it('refuses a webhook over plain http to another host before anything runs', async () => {
    sb = await sandbox();
    const file = writeMembers(sb.dir, 'a.csv', range(1, 3));
    const r = await runCli(
      ['team-members', file, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--notify', 'http://hooks.example.com/secret-xyz-123'],
      {
        env: sb.env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('BAD_NOTIFY_URL');
    expect(r.stdout + r.stderr).not.toContain('secret-xyz-123');
  });
});
