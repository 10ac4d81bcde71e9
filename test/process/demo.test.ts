// `npm run demo` shows what it runs: each `$ upload …` line it prints, pasted into a real shell after
// the `export …` line it prints (`upload` being this checkout's bin/upload.js on PATH), exits as the demo
// said it did and says the same. The built demo runs with --keep-running, so its sandbox is there to
// run the lines against, as a person trying them would have it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/** The line that says how a run ended: the upload's tick, or the refusal. */
const outcome = (text: string) => /^(✓ .*|upload: .*)$/m.exec(text)?.[0];

it('every command the demo prints runs exactly as printed, with the environment it prints', async () => {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'NODE_COMPILE_CACHE']) if (process.env[k]) env[k] = process.env[k]!;
  const demo = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'demo.js'), '--keep-running'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  demo.stderr.setEncoding('utf8').on('data', (text: string) => (said += text));
  const ended = new Promise<number | null>((resolve) => demo.on('close', resolve));
  let exited = false;
  void ended.then(() => (exited = true));
  try {
    await until(() => exited || said.includes('The sandbox keeps running'));
    const exports = /^\$ (export .*)$/m.exec(said)?.[1];
    // The token itself is never printed: the line reads it from the demo's own 0600 file.
    expect(exports).toMatch(/^export UPLOAD_BASE_URL=\S+ UPLOAD_TOKEN="\$\(cat \S+\)" UPLOAD_STATE=\S+$/);
    expect(said).not.toMatch(/sandbox-[\w-]{16}/);
    // Each printed command, what the demo showed of its run, and the exit code it said the run had.
    const steps = [...said.matchAll(/^\$ (upload .*)\n([\s\S]*?)^\(exit code (\d+)/gm)].map(([, line, shown, code]) => ({
      line: line!,
      shown: shown!,
      code: Number(code),
    }));
    expect(steps.map((s) => s.code)).toEqual([0, 0, 4]);
    expect(steps[0]!.line).toBe(
      'upload store-cards fixtures/store-cards.csv --yes --no-baseline    # the first upload: nothing is recorded to compare with yet',
    );

    const bin = tempDir();
    symlinkSync(BIN, join(bin.dir, 'upload'));
    for (const step of steps) {
      const run = spawnSync('sh', ['-c', `${exports}\n${step.line}`], { cwd: ROOT, env: { ...env, PATH: `${bin.dir}:${env.PATH}` }, encoding: 'utf8' });
      expect(run.status, `${step.line}\n${run.stderr}`).toBe(step.code);
      expect(outcome(step.shown)).toBeDefined();
      expect(outcome(run.stderr)).toBe(outcome(step.shown));
    }
  } finally {
    demo.kill('SIGTERM');
  }
  expect(await ended).toBe(0);
  // Ctrl-C (here SIGTERM) stops the sandbox and removes the demo's folder, as it says it does.
  const work = /removes (\S+)\.$/m.exec(said)?.[1];
  expect(work).toMatch(/scheduling-upload-demo-/);
  expect(existsSync(work!)).toBe(false);
});
