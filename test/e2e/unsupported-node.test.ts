// The real CLI on a Node below the engines floor (the system Node 20 of many machines): every command,
// with or without --json or --help, ends with exit 2 and one line naming the Node it needs and the one
// it ran on, before it reads or writes anything. On Node 20 an upload used to die inside undici with a
// raw stack, exit 1, and leave its write-ahead intent behind.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NODE_FLOOR } from '../../src/cli/supported-node.js';
import { BIN, fixture } from '../helpers/cli.js';
import { oldNode } from '../helpers/old-node.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);
const { serve } = serversForFile();

/** The commands `upload --help` lists, run on this (supported) Node: a command added later is covered too. */
async function commands(): Promise<string[]> {
  const { stdout } = await run(process.execPath, [BIN, '--help']);
  const section = stdout.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!);
}

async function onOldNode(args: readonly string[], cwd: string, env: Record<string, string>) {
  const node = oldNode();
  const r = await run(node.path, [BIN, ...args], { cwd, env }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  return { ...r, node };
}

describe('on a Node below the engines floor', () => {
  it('every command exits 2 with one line naming both Nodes, and reads, writes and sends nothing', async () => {
    const server = await serve({ ok: true });
    const names = await commands();
    expect(names).toEqual(expect.arrayContaining(['store-cards', 'team-members', 'history', 'export', 'state', 'config', 'sandbox', 'template']));
    const work = tempDir();
    const state = join(work.dir, 'state');
    const home = join(work.dir, 'home');
    const env = { PATH: process.env.PATH ?? '', HOME: home, UPLOAD_TOKEN: 'old-node-token-0123456789', SANDBOX_TOKEN: 'sandbox-token-0123456789' };
    const upload = [fixture('team-members.csv'), '--yes', '--no-baseline', '--state', state, '--base-url', server.url];
    const argvs: string[][] = [
      [],
      ['--help'],
      ['--version'],
      ['team-members', ...upload],
      ['team-members', ...upload, '--json'],
      ['store-cards', fixture('store-cards.csv'), '--dry-run', '--no-baseline', '--state', state, '--json'],
      ['sandbox', '--port', '0'],
      ['template', 'team-members'],
      // Each command once, bare: the refusal comes before the arguments are read (bin/upload.js), and
      // with --help above it is the same for every command.
      ...names.map((name) => [name]),
      ['team-members', '--help'],
    ];
    const runs = await Promise.all(argvs.map(async (args) => ({ args, r: await onOldNode(args, work.dir, env) })));
    for (const { args, r } of runs) {
      const said = `upload ${args.join(' ')}`;
      expect(r.code, said).toBe(2);
      expect(r.stdout, said).toBe('');
      expect(r.stderr, said).toBe(
        `upload: needs Node.js ${NODE_FLOOR} or later, and ${r.node.path} is Node.js ${r.node.version}; run it with a newer node, or use the single executable (docs/install.md)\n`,
      );
    }
    expect(server.requests).toEqual([]);
    // Nothing written: no state (no write-ahead intent), no home folder, nothing beside the run.
    expect(readdirSync(work.dir)).toEqual([]);
  });
});
