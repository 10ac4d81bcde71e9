// A token and a database password planted in a run are searched for in every byte it writes or posts:
// stdout and stderr (with UPLOAD_DEBUG=1), the --json report, the review page, and each notification
// format's body. The service's own words are shown, never obeyed: escapes in its message reach the
// terminal as text.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';
import { closeTerminals, inTerminal } from '../helpers/tmux.js';

const servers = serversForFile();
const TOKEN = 'planted-token-Hq7Wc3Ld9Zx';
const PASSWORD = 'PgSecret/PW99#zz';
/** Every form a password takes: raw, in a URL, JSON-escaped. */
const FORMS = [PASSWORD, encodeURIComponent(PASSWORD), JSON.stringify(PASSWORD).slice(1, -1), 'PgSecret'];

async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

function expectNoSecret(where: string, text: string): void {
  for (const form of [...FORMS, TOKEN]) expect(text, `${where} shows ${form}`).not.toContain(form);
}

describe('no secret in any byte a run writes or posts', () => {
  it('a state URL with a password, on every command and in every notification format', async () => {
    const tmp = tempDir();
    const file = writeMembers(tmp.dir, 'staff.csv', range(1, 5));
    const state = `postgres://postgres:${encodeURIComponent(PASSWORD)}@127.0.0.1:${await deadPort()}/inj`;
    const hooks = await Promise.all(['json', 'slack', 'teams'].map(() => servers.serve({ status: 200, body: 'ok' })));
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_DEBUG: '1', UPLOAD_BASE_URL: 'http://127.0.0.1:9' };
    const runs: [string, string[]][] = [
      ['upload', ['team-members', file, '--yes']],
      ['dry run', ['team-members', file, '--dry-run']],
      ['history', ['history', 'team-members']],
      ['export', ['export', 'team-members', '--output', join(tmp.dir, 'out.csv')]],
      ['restore', ['restore', 'team-members', '--yes']],
      ['remove', ['remove', 'team-members', 'E00001', '--yes']],
      ['resolve', ['state', 'resolve', 'team-members', '--sent']],
    ];
    for (const [name, args] of runs) {
      for (const [i, format] of ['json', 'slack', 'teams'].entries()) {
        const page = join(tmp.dir, `${name}-${format}.html`);
        const notify = ['--notify', hooks[i]!.url, '--notify-format', format, '--notify-on', 'always'];
        const takesNotify = name !== 'history' && name !== 'export' && name !== 'resolve';
        const extra = takesNotify ? [...notify, '--report-html', page] : [];
        for (const json of [[], ['--json']]) {
          const r = await runCli([...args, '--state', state, ...extra, ...json], { env });
          expect(r.code, `${name}: ${r.stderr}`).toBe(2);
          expectNoSecret(`${name} stdout`, r.stdout);
          expectNoSecret(`${name} stderr`, r.stderr);
          // What the person is told names the store, its password masked.
          expect(r.stderr).toContain('postgres://postgres:***@127.0.0.1');
          if (takesNotify) expectNoSecret(`${name} page`, readFileSync(page, 'utf8'));
        }
      }
    }
    for (const hook of hooks) {
      expect(hook.requests.length).toBeGreaterThan(0);
      for (const req of hook.requests) expectNoSecret('a notification', req.body.toString('utf8'));
    }
  });

  it('PGPASSWORD and a short password in a URL are masked too; the store named as used', async () => {
    const port = await deadPort();
    const viaEnv = await runCli(['history', 'team-members', '--state', `postgres://127.0.0.1/`], {
      env: { UPLOAD_DEBUG: '1', UPLOAD_BASE_URL: 'http://127.0.0.1:9', PGPASSWORD: PASSWORD, PGUSER: 'cron', PGPORT: String(port), PGDATABASE: 'scheduling' },
    });
    expect(viaEnv.code).toBe(2);
    expectNoSecret('stderr', viaEnv.stderr);
    // The role, port and database the PG* variables filled in are named; the password is not.
    expect(viaEnv.stderr).toContain(`postgres://cron:***@127.0.0.1:${port}/scheduling`);
    const short = await runCli(['history', 'team-members', '--state', `postgres://app:pw12@127.0.0.1:${port}/db`], {
      env: { UPLOAD_DEBUG: '1', UPLOAD_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(short.code).toBe(2);
    expect(short.stderr).not.toContain('pw12@');
    expect(short.stderr).toContain(`postgres://app:***@127.0.0.1:${port}/db`);
  });
});

describe("the service's words are shown, never obeyed", () => {
  const HOSTILE = 'bad\u001b]8;;http://evil.example/\u0007click\u001b]8;;\u0007\u001b[2J\u001b[31mred\r\nupload: ✓ 5 team member(s) uploaded\u202e';
  // eslint-disable-next-line no-control-regex
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

  for (const [status, label] of [
    [400, 'a refusal'],
    [200, 'a 2xx that does not confirm'],
  ] as const) {
    it(`${label}: every escape in its message reaches the terminal as text`, async () => {
      const tmp = tempDir();
      const file = writeMembers(tmp.dir, 'staff.csv', range(1, 5));
      const service = await servers.serve({ status, body: { status, message: HOSTILE, errors: [HOSTILE] } });
      const run = await runCli(['team-members', file, '--yes', '--no-baseline', '--state', join(tmp.dir, 'state'), '--base-url', service.url], {
        env: { UPLOAD_TOKEN: TOKEN },
      });
      expect(run.code).toBe(status === 400 ? 5 : 7);
      expect(run.stderr).toContain('\\u001b[2J');
      expect(run.stderr).not.toMatch(RAW);
      // The fake success line never starts a line of its own.
      expect(run.stderr.split('\n').some((line) => line.startsWith('upload: ✓'))).toBe(false);
      const json = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', join(tmp.dir, 'state2'), '--base-url', service.url], {
        env: { UPLOAD_TOKEN: TOKEN },
      });
      expect(json.json().response.message).not.toMatch(RAW);
    });
  }
});

describe("the service's words on a real terminal (tmux)", () => {
  afterEach(closeTerminals);

  it('a hostile message neither clears the screen, nor recolours it, nor starts a line of its own', async () => {
    const tmp = tempDir();
    const file = writeMembers(tmp.dir, 'staff.csv', range(1, 5));
    const hostile = 'bad\u001b[2J\u001b[H\u001b]8;;http://evil.example/\u0007click\u001b]8;;\u0007\u001b[41mred\r\nupload: ✓ 5 team member(s) uploaded';
    const service = await servers.serve({ status: 400, body: { status: 400, message: hostile } });
    const t = inTerminal(['team-members', file, '--yes', '--no-baseline', '--state', join(tmp.dir, 'state'), '--base-url', service.url], {
      UPLOAD_TOKEN: TOKEN,
      NO_COLOR: '1',
    });
    const screen = await t.until(/exit 5/);
    // The lines before the message are still on the screen: nothing cleared it or moved the cursor home.
    expect(screen).toMatch(/staff\.csv: 5 records valid/);
    expect(screen).toContain('\\u001b[2J');
    expect(screen.split('\n').some((line) => line.startsWith('upload: ✓'))).toBe(false);
    // No colour reached the screen (NO_COLOR: the tool adds none; the service's red is text).
    expect(t.screenWithStyles()).not.toContain('\u001b[41m');
  });
});
