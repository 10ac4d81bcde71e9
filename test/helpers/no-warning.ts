// Runs of a shipped form of the program (bin/upload.js, the installed tarball, the single executable),
// spawned as a person runs them, whose stderr must hold no warning of Node's own: the runs that once
// printed one (a dry run that notifies, an xlsx export), a workbook read by its worker thread, and
// every command's --help. The tests run main() in-process and never saw those warnings.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commandNames } from '../../src/cli/table.js';
import { fixture, runCli } from './cli.js';
import { sandbox, type TestSandbox } from './sandbox.js';
import { scriptedServer, type ScriptedServer } from './scripted-server.js';
import { tempDir } from './tmp.js';

/** What Node prints when it warns: `(node:1234) ExperimentalWarning: …`, `DeprecationWarning: …`. */
export const NODE_WARNING = /Warning:|\(node:\d+\)/;

/** How to start one form of the program: the command and the words before the tool's own. */
export interface Program {
  readonly command: string;
  readonly prefix: readonly string[];
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function spawned(program: Program, args: readonly string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(program.command, [...program.prefix, ...args], { env, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A sandbox holding one recorded upload (for export), a webhook that answers 200, and a state of their own. */
export interface Scene {
  readonly sandbox: TestSandbox;
  readonly hook: ScriptedServer;
  readonly dir: string;
  close(): Promise<void>;
}

export async function scene(): Promise<Scene> {
  const sb = await sandbox();
  const hook = await scriptedServer([{ status: 200, body: {} }]);
  const first = await runCli(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--state', sb.stateDir], { env: sb.env });
  if (first.code !== 0) throw new Error(`the first upload failed: ${first.stderr}`);
  return {
    sandbox: sb,
    hook,
    dir: tempDir().dir,
    close: async () => {
      await hook.close();
      await sb.stop();
    },
  };
}

/** What a run said on stderr that is a Node warning, or that went wrong: one line per run; none is right. */
export async function warningsOf(program: Program, s: Scene): Promise<string[]> {
  const env: Record<string, string> = { ...s.sandbox.env, NO_COLOR: '1' };
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT', 'NODE_COMPILE_CACHE']) if (process.env[k]) env[k] = process.env[k];
  const state = ['--state', s.sandbox.stateDir];
  const xlsx = join(s.dir, `export-${Math.random().toString(36).slice(2)}.xlsx`);
  const notified = s.hook.requests.length;
  const runs: { args: string[]; check?: () => string | undefined }[] = [
    { args: ['--help'] },
    { args: ['--version'] },
    ...commandNames().map((name) => ({ args: [name, '--help'] })),
    { args: ['team-members', fixture('team-members.csv'), '--dry-run', ...state] },
    { args: ['team-members', fixture('team-members-hidden-workbook.xlsx'), '--dry-run', '--hidden-rows', 'exclude', '--max-removals', '1', ...state] },
    {
      args: ['team-members', fixture('team-members.csv'), '--dry-run', '--notify', s.hook.url, '--notify-on', 'always', ...state],
      check: () => (s.hook.requests.length > notified ? undefined : 'the webhook heard nothing'),
    },
    { args: ['export', 'team-members', '--format', 'xlsx', '--output', xlsx, ...state], check: () => (existsSync(xlsx) ? undefined : 'no workbook written') },
  ];
  const found: string[] = [];
  // Two at a time: the machine's cores, not one spawn after another.
  for (let i = 0; i < runs.length; i += 2) {
    await Promise.all(
      runs.slice(i, i + 2).map(async ({ args, check }) => {
        const r = await spawned(program, args, env);
        const wrong = r.code !== 0 ? `exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' ')}` : check?.();
        if (wrong) found.push(`${args.join(' ')}: ${wrong}`);
        const warning = r.stderr.split('\n').find((line) => NODE_WARNING.test(line));
        if (warning) found.push(`${args.join(' ')}: ${warning}`);
      }),
    );
  }
  return found;
}
