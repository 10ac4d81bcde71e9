// Trust only what is yours: a config file someone else can write never chooses where the token goes,
// two addresses are a question, and the files a person names (config, token, mapping, keys) are read
// only when they are regular files, up to their bound — never waited on, never read without end.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CANARY, expectNoCanary } from '../helpers/canary.js';
import { fixture, runCli } from '../helpers/cli.js';
import { plantAsOtherUser } from '../helpers/other-user.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const { serve } = serversForFile();
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const configFor = (baseUrl: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ defaultTarget: 't', targets: { t: { baseUrl, tokenEnv: 'UPLOAD_TOKEN', ...extra } } });

/** A working folder every user may write to, with the sticky bit (a shared drop folder, like /tmp). */
function sharedFolder(): string {
  const t = tempDir();
  chmodSync(t.dir, 0o755);
  const shared = join(t.dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return shared;
}

/** The nightly job of the report: production by UPLOAD_BASE_URL, the production token, --yes. */
function nightly(cwd: string, prod: string, args: string[] = []) {
  return runCli(['team-members', fixture('team-members.csv'), '--yes', '--json', '--no-baseline', '--state', join(cwd, '..', 'state'), ...args], {
    cwd,
    env: { UPLOAD_TOKEN: CANARY, UPLOAD_BASE_URL: prod },
  });
}

describe('a planted config never chooses where the token goes', () => {
  it("another user's upload.config.json in the working folder is refused: nothing and no token reach either address", async () => {
    sb = await sandbox();
    const evil = await serve({ ok: true });
    const cwd = sharedFolder();
    const path = join(cwd, 'upload.config.json');
    const planted = plantAsOtherUser(path, configFor(evil.url));
    const r = await nightly(cwd, sb.url);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ outcome: 'usage-error', error: { code: 'UNTRUSTED_CONFIG' } });
    expect(r.json().error.message).toContain(path);
    expect(r.json().error.message).toMatch(planted.why);
    expect(evil.requests).toEqual([]);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    expectNoCanary([r.stdout, r.stderr]);
  });

  it('your own config whose defaultTarget names another address than UPLOAD_BASE_URL: CONFLICTING_ADDRESS, naming both', async () => {
    sb = await sandbox();
    const evil = await serve({ ok: true });
    const cwd = sharedFolder();
    writeFileSync(join(cwd, 'upload.config.json'), configFor(evil.url), { mode: 0o644 });
    const r = await nightly(cwd, sb.url);
    expect(r.code).toBe(2);
    const { error } = r.json();
    expect(error.code).toBe('CONFLICTING_ADDRESS');
    expect(error.message).toContain(`${evil.url} from the target 't' (chosen by the defaultTarget of ${join(cwd, 'upload.config.json')})`);
    expect(error.message).toContain(`${sb.url} from UPLOAD_BASE_URL`);
    expect(error.hint).toContain('unset UPLOAD_BASE_URL');
    // --base-url on the command line is no precedence either.
    const flagged = await nightly(cwd, sb.url, ['--base-url', sb.url]);
    expect(flagged.json().error).toMatchObject({ code: 'CONFLICTING_ADDRESS', message: expect.stringContaining(`${sb.url} from --base-url`) });
    expect(evil.requests).toEqual([]);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    expectNoCanary([r.stdout, r.stderr, flagged.stdout, flagged.stderr]);
  });

  it('the same address written two ways is one address: the run goes ahead', async () => {
    sb = await sandbox();
    const cwd = sharedFolder();
    writeFileSync(join(cwd, 'upload.config.json'), configFor(`${sb.url}/`), { mode: 0o600 });
    const r = await runCli(['team-members', fixture('team-members.csv'), '--yes', '--json', '--no-baseline', '--state', join(cwd, '..', 'state')], {
      cwd,
      env: { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: sb.url },
    });
    expect(r.code).toBe(0);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });
});

describe('a config file is trusted only when it is yours', () => {
  /** `upload config --config PATH --json`: loading the file is all it does. */
  const show = (path: string, env: Record<string, string> = {}) => runCli(['config', '--json', ...(path ? ['--config', path] : [])], { env });

  it.each([
    [0o664, /can be written by its group/],
    [0o646, /can be written by every user/],
    [0o666, /can be written by every user/],
  ])('mode %o: UNTRUSTED_CONFIG naming the file, owner and mode, and chmod go-w', async (mode, why) => {
    const t = tempDir();
    const path = t.write('c.json', configFor('https://scheduling.example.com'));
    chmodSync(path, mode);
    const r = await show(path);
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('UNTRUSTED_CONFIG');
    expect(r.json().error.message).toContain(`${path} (owner `);
    expect(r.json().error.message).toContain(`mode 0${mode.toString(8)})`);
    expect(r.json().error.message).toMatch(why);
    expect(r.json().error.hint).toBe(`chmod go-w ${path}`);
    chmodSync(path, 0o644);
    expect((await show(path)).code).toBe(0);
  });

  it('the per-user config is judged the same way', async () => {
    const t = tempDir();
    mkdirSync(join(t.dir, 'scheduling-upload'));
    const path = t.write('scheduling-upload/config.json', configFor('https://scheduling.example.com'));
    chmodSync(path, 0o666);
    const r = await show('', { XDG_CONFIG_HOME: t.dir });
    expect(r.json().error).toMatchObject({ code: 'UNTRUSTED_CONFIG', message: expect.stringContaining(path) });
  });

  it('a folder every user can write to is refused without the sticky bit, accepted with it', async () => {
    const t = tempDir();
    const folder = join(t.dir, 'open');
    mkdirSync(folder);
    const path = join(folder, 'c.json');
    writeFileSync(path, configFor('https://scheduling.example.com'), { mode: 0o600 });
    chmodSync(folder, 0o777);
    const r = await show(path);
    expect(r.json().error).toMatchObject({ code: 'UNTRUSTED_CONFIG', message: expect.stringContaining(`is in ${folder} (mode 0777)`) });
    expect(r.json().error.hint).toContain(`chmod o-w ${folder}`);
    chmodSync(folder, 0o1777);
    expect((await show(path)).json()).toMatchObject({ config: path, target: 't' });
  });

  it('a symbolic link is judged by the file it points to', async () => {
    const t = tempDir();
    const mine = t.write('mine.json', configFor('https://scheduling.example.com'));
    chmodSync(mine, 0o600);
    symlinkSync(mine, join(t.dir, 'link.json'));
    expect((await show(join(t.dir, 'link.json'))).json()).toMatchObject({ target: 't' });
    chmodSync(mine, 0o666);
    const r = await show(join(t.dir, 'link.json'));
    expect(r.json().error).toMatchObject({ code: 'UNTRUSTED_CONFIG', message: expect.stringContaining('mode 0666') });
  });
});

describe('files that are not files: refused at once, naming the path', () => {
  const fifoIn = (dir: string, name: string) => {
    const path = join(dir, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  it('./upload.config.json that is a FIFO does not hang the run: NOT_A_FILE', async () => {
    const t = tempDir();
    const path = fifoIn(t.dir, 'upload.config.json');
    const r = await runCli(['team-members', fixture('team-members.csv'), '--dry-run', '--json'], { cwd: t.dir });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'NOT_A_FILE', message: `the config file ${path} is a FIFO (named pipe), not a regular file` });
  });

  it.each([
    ['--config', ['config', '--json', '--config']],
    ['--map', ['team-members', fixture('team-members.csv'), '--dry-run', '--json', '--map']],
    ['--token-file', ['team-members', fixture('team-members.csv'), '--yes', '--json', '--base-url', 'http://127.0.0.1:9', '--token-file']],
    ['--keys-file', ['remove', 'team-members', '--yes', '--json', '--base-url', 'http://127.0.0.1:9', '--keys-file']],
  ])('%s naming a FIFO, a device or a directory: NOT_A_FILE (exit 2)', async (flag, args) => {
    const t = tempDir();
    for (const [path, what] of [
      [fifoIn(t.dir, 'pipe'), 'a FIFO (named pipe)'],
      ['/dev/zero', 'a device'],
      [t.dir, 'a directory'],
    ] as const) {
      const r = await runCli([...args, path], { env: { UPLOAD_TOKEN: TOKEN } });
      expect(r.code, `${flag} ${what}`).toBe(2);
      expect(r.json().error).toMatchObject({ code: 'NOT_A_FILE', message: `${flag} ${path} is ${what}, not a regular file` });
    }
  });

  it.each([
    ['--config', 1024 * 1024, ['config', '--json', '--config'], '1 MiB'],
    ['--map', 1024 * 1024, ['team-members', fixture('team-members.csv'), '--dry-run', '--json', '--map'], '1 MiB'],
    ['--token-file', 64 * 1024, ['team-members', fixture('team-members.csv'), '--yes', '--json', '--base-url', 'http://127.0.0.1:9', '--token-file'], '64 KiB'],
    ['--keys-file', 16 * 1024 * 1024, ['remove', 'team-members', '--yes', '--json', '--base-url', 'http://127.0.0.1:9', '--keys-file'], '16 MiB'],
  ])('%s over its bound (%i bytes): FLAG_FILE_TOO_LARGE naming the bound', async (flag, bound, args, shown) => {
    const path = tempDir().write('big', Buffer.alloc(bound + 1, 0x20));
    const r = await runCli([...args, path], { env: { UPLOAD_TOKEN: TOKEN } });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'FLAG_FILE_TOO_LARGE', message: `${flag} ${path}: more than ${shown}, which is not what ${flag} takes` });
  });

  it("a target's mapping file that is a FIFO: NOT_A_FILE, not a hang", async () => {
    const t = tempDir();
    const fifo = fifoIn(t.dir, 'map.json');
    const config = t.write('c.json', JSON.stringify({ targets: { t: { baseUrl: 'http://127.0.0.1:9', map: { 'team-members': 'map.json' } } } }));
    chmodSync(config, 0o600);
    const r = await runCli(['team-members', fixture('team-members.csv'), '--dry-run', '--json', '--config', config, '--target', 't']);
    expect(r.json().error).toMatchObject({ code: 'NOT_A_FILE', message: `--map ${fifo} is a FIFO (named pipe), not a regular file` });
  });
});
