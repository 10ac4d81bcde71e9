// A regular file over 1 MiB is read on the main thread, 32 KiB at a time (read/index.ts, regularFile):
// the same records as the same bytes streamed, the event loop served while it is read, an abort heard
// between reads, and its descriptor closed however the read ends.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { openRecords } from '../../src/read/index.js';
import { openOn } from '../helpers/descriptors.js';
import { tempDir } from '../helpers/tmp.js';

/** A CSV file of `rows` team members, some names beyond ASCII, so characters straddle the 32 KiB reads. */
function csv(rows: number): Buffer {
  const lines = ['employeeID,email,name,roleCode,parentKey'];
  for (let i = 0; i < rows; i++) lines.push(`E${i},p${i}@example.com,"Søren Müller, ${i} 日本",R1,S${i % 50}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function records(source: ReturnType<typeof openRecords>): Promise<{ line: number; cells: unknown[]; plain: boolean | undefined }[]> {
  const out: { line: number; cells: unknown[]; plain: boolean | undefined }[] = [];
  for await (const batch of source.batches) for (const r of batch) out.push({ line: r.line, cells: [...r.cells], plain: r.plain });
  return out;
}

describe('a regular file over 1 MiB, read 32 KiB at a time on this thread', () => {
  it('gives the very records the same bytes give streamed, line numbers and all', async () => {
    const bytes = csv(60_000);
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const path = tempDir().write('people.csv', bytes);
    const fromFile = await records(openRecords(path, { source: 'people.csv' }));
    const streamed = await records(openRecords('-', { source: 'people.csv', format: 'csv' }, () => Readable.from([bytes])));
    expect(fromFile).toHaveLength(60_000);
    expect(fromFile).toEqual(streamed);
    expect(fromFile.at(-1)).toMatchObject({ line: 60_001, cells: ['E59999', 'p59999@example.com', 'Søren Müller, 59999 日本', 'R1', 'S49'] });
  });

  it('hands the event loop back as it reads: timers run between its reads', async () => {
    const path = tempDir().write('people.csv', csv(200_000));
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      await records(openRecords(path, { source: 'people.csv' }));
    } finally {
      clearInterval(timer);
    }
    // About 12 MiB: some 380 reads, the loop's turn every 16 of them.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it('ends at an abort between reads, with the signal’s reason, and closes the file', async () => {
    const path = tempDir().write('people.csv', csv(200_000));
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const source = openRecords(path, { source: 'people.csv', signal: controller.signal });
    let seen = 0;
    const read = (async () => {
      for await (const batch of source.batches) {
        seen += batch.length;
        if (seen >= 1000) controller.abort(reason);
      }
    })();
    await expect(read).rejects.toBe(reason);
    expect(seen).toBeLessThan(200_000);
    expect(openOn(path)).toBe(0);
  });

  it('closes the file when the reader stops early (an error in the records)', async () => {
    const bytes = Buffer.concat([csv(40_000), Buffer.from('E1,"unclosed\r\n'), csv(40_000).subarray(42)]);
    const path = tempDir().write('people.csv', bytes);
    const failed = await records(openRecords(path, { source: 'people.csv' })).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(InputError);
    expect(openOn(path)).toBe(0);
  });

  it('a directory is no file to read: CANNOT_READ naming it', async () => {
    const { dir } = tempDir();
    const failed = await records(openRecords(dir, { source: dir, format: 'csv' })).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(InputError);
    expect(failed).toMatchObject({ code: 'CANNOT_READ', message: `${dir}: cannot read the file: it is a directory, not a file` });
  });
});
