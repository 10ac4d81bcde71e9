// Workbooks built to hurt the reader (issue 24), generated here rather than committed: each must end
// in seconds with WORKBOOK_TOO_LARGE or a valid read, with a report, and a signal must stop a read
// at once. The zip's declared sizes are never believed; what it holds is counted while unpacking.
import { crc32, createDeflateRaw } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { startCli, until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { xlsx } from '../helpers/zip.js';
import { WORKBOOK_LIMITS } from '../../src/read/xlsx.js';

const HEADER =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>employeeID</t></is></c><c r="B1" t="inlineStr"><is><t>email</t></is></c><c r="C1" t="inlineStr"><is><t>name</t></is></c></row>';

/** `rows` rows of `perRow` cells each, from row 2 on, as one string per call (kept small). */
function rows(from: number, count: number, cell: (r: number) => string): string {
  let s = '';
  for (let r = from; r < from + count; r++) s += `<row r="${r}">${cell(r)}</row>`;
  return s;
}

/** Deflates `total` bytes made of `block` repeated, without holding them inflated. */
async function deflatedRepeat(prefix: string, block: Buffer, times: number, suffix: string) {
  const deflate = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = crc32(prefix);
  deflate.write(prefix);
  for (let i = 0; i < times; i++) {
    crc = crc32(block, crc);
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(suffix, crc);
  deflate.end(suffix);
  await done;
  return { bytes: Buffer.concat(out), size: Buffer.byteLength(prefix) + block.length * times + Buffer.byteLength(suffix), crc };
}

/** Prints the process's peak resident memory (worker threads included) as it exits. */
const MAX_RSS = `data:text/javascript,process.on('exit', () => process.stderr.write('\\nmaxRSS=' + process.resourceUsage().maxRSS + '\\n'))`;

/** The CLI in a process of its own (its memory is its own), timed, with its peak memory in MiB. */
async function timed(args: string[]) {
  const start = Date.now();
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
  return { r, seconds: (Date.now() - start) / 1000, rss };
}

describe('hostile workbooks end in seconds', () => {
  it('entries declaring size 0 that hold more cells than the limit', async () => {
    const cells = WORKBOOK_LIMITS.cells + 10;
    const body = HEADER + rows(2, cells / 10, (r) => '<c><v>1</v></c>'.repeat(10).replace('<c>', `<c r="A${r}">`));
    const book = xlsx({
      sheetData: {
        data: `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`,
        declare: 0,
      },
    });
    expect(book.length).toBeLessThan(2 * 1024 * 1024);
    const file = tempDir().write('declares-zero.xlsx', book);
    const { r, seconds, rss } = await timed(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json()).toMatchObject({
      outcome: 'invalid',
      error: { code: 'WORKBOOK_TOO_LARGE', message: expect.stringContaining('cells (counted while unpacking)') },
    });
    expect(seconds).toBeLessThan(20);
    expect(rss).toBeLessThan(1024);
  });

  it('a shared-string table truthfully declaring 499 MiB', async () => {
    const block = Buffer.from(`<si><t>${'x'.repeat(1000)}</t></si>`.repeat(1024));
    const strings = await deflatedRepeat(
      '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
      block,
      Math.floor((499 * 1024 * 1024) / block.length),
      '</sst>',
    );
    const book = xlsx({ sheetData: HEADER, sharedStrings: { data: '', deflated: strings } });
    const file = tempDir().write('strings.xlsx', book);
    const { r, seconds, rss } = await timed(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error).toMatchObject({ code: 'WORKBOOK_TOO_LARGE', message: expect.stringContaining('unpacks to more than 256 MiB') });
    expect(seconds).toBeLessThan(30);
    expect(rss).toBeLessThan(1024);
  });

  it('a million formulas', async () => {
    const body =
      HEADER + rows(2, 100_000, (r) => Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}"><f>1+1</f><v>2</v></c>`).join(''));
    const file = tempDir().write('formulas.xlsx', xlsx({ sheetData: body }));
    const { r, seconds, rss } = await timed(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(3);
    expect(r.json().error.code).toBe('WORKBOOK_TOO_LARGE');
    expect(seconds).toBeLessThan(20);
    expect(rss).toBeLessThan(1024);
  });

  it('a 3 KB workbook declaring A1:XFD1048576, with a stray cell in the far corner', async () => {
    const body = `${HEADER}<row r="2"><c r="A2" t="inlineStr"><is><t>E1</t></is></c><c r="B2" t="inlineStr"><is><t>a@example.com</t></is></c><c r="C2" t="inlineStr"><is><t>A</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t> </t></is></c></row>`;
    const book = xlsx({ sheetData: body, dimension: 'A1:XFD1048576' });
    expect(book.length).toBeLessThan(4096);
    const file = tempDir().write('far-corner.xlsx', book);
    const { r, seconds, rss } = await timed(['team-members', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().records).toBe(1);
    expect(seconds).toBeLessThan(15);
    expect(rss).toBeLessThan(1024);
  });
});

describe('a signal while a workbook is read', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the run within a second or two, interrupted', async (signal) => {
    // Just under the cell limit: SheetJS takes seconds over it, in its worker thread.
    const body =
      HEADER +
      rows(2, 300_000, (r) => `<c r="A${r}"><v>${r}</v></c><c r="B${r}" t="inlineStr"><is><t>p${r}@example.com</t></is></c><c r="C${r}"><v>${r}</v></c>`);
    const file = tempDir().write('slow.xlsx', xlsx({ sheetData: body }));
    // Not --json, which is quiet: the "Reading" line tells the test the read has begun.
    const cli = startCli(['team-members', file, '--dry-run'], { NO_COLOR: '1' });
    await until(() => cli.stderr().includes('Reading'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = Date.now();
    cli.child.kill(signal);
    const done = await cli.done;
    expect((Date.now() - sent) / 1000).toBeLessThan(3);
    expect(done.code).toBe(130);
    expect(done.stderr).not.toContain('Dry run');
    expect(done.stderr).toMatch(/interrupted \((Ctrl-C|SIGTERM)\)/);
  });
});
