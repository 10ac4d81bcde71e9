// Workbooks built to hurt the reader (issue 24), generated rather than committed (test/helpers/zip.ts):
// each must end with WORKBOOK_TOO_LARGE or a valid read, with a report, in bounded memory, and a signal
// must stop a read. The zip's declared sizes are never believed; what it holds is counted while
// unpacking. How long each takes is measured by bench/limits.js, not asserted on a shared machine.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { startCli, until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { HOSTILE_WORKBOOKS } from '../helpers/zip.js';
import { WORKBOOK_LIMITS } from '../../src/read/xlsx.js';

/** Prints the process's peak resident memory (worker threads included) as it exits. */
const MAX_RSS = `data:text/javascript,process.on('exit', () => process.stderr.write('\\nmaxRSS=' + process.resourceUsage().maxRSS + '\\n'))`;

/**
 * The CLI in a process of its own (its memory is its own), with its peak memory in MiB. How long each
 * takes is measured in bench/limits.js, not asserted here: a defence that failed would run for minutes
 * or past the memory bound, which the test's timeout and the memory check catch.
 */
async function measured(args: string[]) {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', MAX_RSS, BIN, ...args], { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
  });
  const rss = Number(/maxRSS=(\d+)/.exec(stderr)?.[1]) / 1024;
  const r = { code, json: () => JSON.parse(stdout) as Record<string, any> };
  return { r, rss };
}

describe('hostile workbooks end with a verdict, in bounded memory', () => {
  it('entries declaring size 0 that hold more cells than the limit', async () => {
    const book = HOSTILE_WORKBOOKS.declaresZero(WORKBOOK_LIMITS.cells);
    expect(book.length).toBeLessThan(2 * 1024 * 1024);
    const file = tempDir().write('declares-zero.xlsx', book);
    const { r, rss } = await measured(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json()).toMatchObject({
      outcome: 'invalid',
      error: { code: 'WORKBOOK_TOO_LARGE', message: expect.stringContaining('cells (counted while unpacking)') },
    });
    expect(rss).toBeLessThan(1024);
  });

  it('a shared-string table truthfully declaring 499 MiB', async () => {
    const book = await HOSTILE_WORKBOOKS.strings499MiB();
    const file = tempDir().write('strings.xlsx', book);
    const { r, rss } = await measured(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'WORKBOOK_TOO_LARGE', message: expect.stringContaining('unpacks to more than 256 MiB') });
    expect(rss).toBeLessThan(1024);
  });

  it('a million formulas', async () => {
    const file = tempDir().write('formulas.xlsx', HOSTILE_WORKBOOKS.millionFormulas());
    const { r, rss } = await measured(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error.code).toBe('WORKBOOK_TOO_LARGE');
    expect(rss).toBeLessThan(1024);
  });

  it('a 3 KB workbook declaring A1:XFD1048576, with a stray cell in the far corner', async () => {
    const book = HOSTILE_WORKBOOKS.farCorner();
    expect(book.length).toBeLessThan(4096);
    const file = tempDir().write('far-corner.xlsx', book);
    const { r, rss } = await measured(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().records).toBe(1);
    expect(rss).toBeLessThan(1024);
  });
});

describe('a signal while a workbook is read', () => {
  // Just under the cell limit: SheetJS takes seconds over it, in its worker thread. Made once for both
  // signals (45 MB of XML to build and deflate).
  let slow: string | undefined;
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the run, interrupted, without waiting for the read', async (signal) => {
    const file = (slow ??= tempDir().write('slow.xlsx', HOSTILE_WORKBOOKS.slow()));
    // Not --json, which is quiet: the "Reading" line tells the test the read has begun.
    const cli = startCli(['team-members', file, '--dry-run'], { NO_COLOR: '1' });
    await until(() => cli.stderr().includes('Reading'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli.child.kill(signal);
    // The read is stopped, not waited out: a run that went on would print its dry run (or be killed
    // by startCli's hang bound). The time it takes is bench/limits.js's.
    const done = await cli.done;
    expect(done.code).toBe(130);
    expect(done.stderr).not.toContain('Dry run');
    expect(done.stderr).toMatch(/interrupted \((Ctrl-C|SIGTERM)\)/);
  });
});
