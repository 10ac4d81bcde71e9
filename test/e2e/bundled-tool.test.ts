// The tool bundled into one CommonJS file, as the single executable carries it (scripts/bundle.mjs),
// run under plain node: there is no file beside it, so the workbook reader's worker must come from the
// bundle itself. (It once did not: every run of the executable, CSV ones too, was an internal error.)
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NODE_FLOOR } from '../../src/cli/supported-node.js';
import { fixture } from '../helpers/cli.js';
import { oldNode } from '../helpers/old-node.js';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);

describe('the bundled tool', () => {
  it('reads a CSV file and a workbook, hidden rows and all', async () => {
    const out = join(tempDir().dir, 'upload.cjs');
    // @ts-expect-error: a plain JavaScript build script, without types
    const { bundleTool } = (await import('../../scripts/bundle.mjs')) as { bundleTool(outfile: string, version: string): Promise<unknown> };
    await bundleTool(out, '0.0.0-test');
    // What the executable carries holds no test hook (scripts/test-hooks.mjs): no variable can stop it.
    const bundled = readFileSync(out, 'utf8');
    for (const word of ['UPLOAD_TEST_PAUSE_AT', 'paused at']) expect(bundled).not.toContain(word);
    const paused = await run(process.execPath, [out, 'team-members', fixture('team-members.csv'), '--dry-run', '--json'], {
      env: { PATH: process.env.PATH ?? '', UPLOAD_TEST_PAUSE_AT: 'planned,locked,fenced,intended,answered,recorded' },
    });
    expect(JSON.parse(paused.stdout)).toMatchObject({ exitCode: 0 });
    const dryRun = async (kind: string, file: string, args: string[] = []) => {
      const r = await run(process.execPath, [out, kind, fixture(file), '--dry-run', '--json', ...args], { env: { PATH: process.env.PATH ?? '' } }).catch(
        (err: { stdout: string }) => err,
      );
      return JSON.parse(r.stdout) as Record<string, any>;
    };
    expect(await dryRun('team-members', 'team-members.csv')).toMatchObject({ exitCode: 0 });
    expect(await dryRun('team-members', 'team-members-hidden-workbook.xlsx', ['--hidden-rows', 'exclude'])).toMatchObject({ exitCode: 0, records: 3 });
    const hidden = await dryRun('team-members', 'team-members-hidden-workbook.xlsx');
    expect(hidden).toMatchObject({ exitCode: 3, issueCounts: { HIDDEN_ROWS: 1 } });

    // The executable carries the Node that built it; built with one below the floor, it refuses before
    // the program in the bundle loads, as bin/upload.js does.
    const old = oldNode();
    const refused = await run(old.path, [out, 'team-members', fixture('team-members.csv'), '--dry-run', '--json'], { env: { PATH: '' } }).catch(
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(new RegExp(`^upload: needs Node\\.js ${NODE_FLOOR} or later, and .* is Node\\.js ${old.version};[^\\n]*\\n$`)),
    });
  });
});
