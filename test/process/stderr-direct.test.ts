// stderr off a terminal is written straight to its descriptor (src/cli/direct-stderr.ts), not through
// Node's stream: the same lines in the same order whether it is a file, a pipe or a socket, and a
// reader that goes away ends nothing but the output.
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

  it('a reader of stderr that goes away leaves the run its own exit code, and no stack', async () => {
    const { dir } = tempDir();
    const child = spawn(process.execPath, [...dryRun(join(dir, 'state')), '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'dry-run' });
  });
});
