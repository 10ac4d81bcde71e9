// stdout and stderr off a terminal are written straight to their descriptors (src/cli/direct-stderr.ts),
// not through Node's streams: the same lines in the same order whether each is a file, a pipe or a
// socket, and a reader that goes away ends nothing but the output.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, fixture, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
const dryRun = (state: string) => [BIN, 'team-members', fixture('team-members.csv'), '--dry-run', '--state', state];
const quoted = (args: readonly string[]) => args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');

describe('stderr off a terminal', () => {
  it('says the same, in the same order, to a socket, a pipe and a file', () => {
    const { dir } = tempDir();
    const args = dryRun(join(dir, 'state'));
    // A socket: what a parent Node process's 'pipe' is.
    const socket = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' });
    expect(socket.status).toBe(0);
    expect(socket.stderr).toMatch(/Mapping used[\s\S]*Dry run: \d+ team members would replace every team member/);
    const node = quoted([process.execPath, ...args]);
    const pipe = spawnSync('sh', ['-c', `${node} 2>&1 >/dev/null | cat`], { cwd: ROOT, env, encoding: 'utf8' });
    expect(pipe.stdout).toBe(socket.stderr);
    const file = join(dir, 'stderr.txt');
    expect(spawnSync('sh', ['-c', `${node} 2>${quoted([file])}`], { cwd: ROOT, env }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(socket.stderr);
  });
});

describe('stdout off a terminal', () => {
  it('holds the same report, byte for byte, as a socket, a pipe and a file', () => {
    const { dir } = tempDir();
    const args = [...dryRun(join(dir, 'state')), '--json'];
    const socket = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' });
    expect(socket.status).toBe(0);
    expect(JSON.parse(socket.stdout)).toMatchObject({ outcome: 'dry-run', exitCode: 0 });
    const node = quoted([process.execPath, ...args]);
    const pipe = spawnSync('sh', ['-c', `${node} 2>/dev/null | cat`], { cwd: ROOT, env, encoding: 'utf8' });
    const file = join(dir, 'report.json');
    expect(spawnSync('sh', ['-c', `${node} >${quoted([file])} 2>/dev/null`], { cwd: ROOT, env }).status).toBe(0);
    // The report names the run's own state folder and file, the same in each: only the bytes' way out differs.
    expect(pipe.stdout).toBe(socket.stdout);
    expect(readFileSync(file, 'utf8')).toBe(socket.stdout);
  });

  // The other stream still says what it should: the report on stdout, the closing lines on stderr.
  it.each(['stdout', 'stderr'] as const)('a reader of %s that goes away leaves the run its own exit code, and no stack', async (gone) => {
    const { dir } = tempDir();
    const child = spawn(process.execPath, [...dryRun(join(dir, 'state')), '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child[gone].destroy();
    const kept = gone === 'stdout' ? 'stderr' : 'stdout';
    let said = '';
    child[kept].on('data', (b: Buffer) => (said += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    if (kept === 'stdout') expect(JSON.parse(said)).toMatchObject({ outcome: 'dry-run' });
    else expect(said).toMatch(/Dry run: \d+ team members would replace every team member/);
    expect(said).not.toMatch(/EPIPE|\n\s+at /);
  });

  it("a --json dry run to pipes loads none of Node's stream or network modules", () => {
    const { dir, write } = tempDir();
    const list = join(dir, 'modules.txt');
    // Preloaded: at exit, the modules Node loaded for the run (its own, by their internal names).
    const probe = write(
      'probe.cjs',
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
    );
    const run = spawnSync(process.execPath, ['--require', probe, ...dryRun(join(dir, 'state')), '--json'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'dry-run' });
    const loaded = readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((m) => /^NativeModule (net|stream|tty|internal\/streams\/writable)$/.test(m))).toEqual([]);
  });
});
