// A writer killed with SIGKILL at any moment leaves the old file or the new one, whole: never half.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { linkFileAtomic, NotAFile, writeBytesAtomic, writeFileAtomic } from '../../src/files/atomic.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const RECORDS = 4000;
// The child writes a ~1.3 MB JSON array in small chunks, yielding between them, so a kill lands mid-write.
const CHILD = `
import { writeFileAtomic } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/files/atomic.js')).href)};
const target = process.argv[1];
async function* chunks() {
  yield '[';
  for (let i = 0; i < ${RECORDS}; i++) {
    yield (i ? ',' : '') + JSON.stringify({ employeeID: 'E' + i, name: 'x'.repeat(300) });
    if (i === 10) process.stdout.write('writing\\n');
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  yield ']';
}
await writeFileAtomic(target, chunks());
process.stdout.write('done\\n');
`;

/** Kills the writer `afterMs` after it started writing, or (Infinity) lets it finish first. */
function killMidWrite(target: string, afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, target], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('writing') && Number.isFinite(afterMs) && !child.killed) setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

describe('writeFileAtomic', () => {
  it('writes every chunk, strings and bytes', async () => {
    const { dir } = tempDir();
    const path = join(dir, 'f.json');
    await writeFileAtomic(path, ['[', Buffer.from('1,2'), ']']);
    expect(readFileSync(path, 'utf8')).toBe('[1,2]');
    expect(readdirSync(dir)).toEqual(['f.json']);
  });

  it('writes many small chunks, gathered, and large ones, in order and whole', async () => {
    const { dir } = tempDir();
    const path = join(dir, 'f.csv');
    const chunks = Array.from({ length: 20_000 }, (_, i) => (i % 5000 === 0 ? Buffer.alloc(100_000, 48 + (i % 10)) : `line ${i}, é\r\n`));
    await writeFileAtomic(path, chunks);
    const expected = Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    const written = readFileSync(path);
    // Compared natively: toEqual walks 2 MB byte by byte.
    expect(written.length).toBe(expected.length);
    expect(written.equals(expected)).toBe(true);
  });

  it('leaves no temp file behind and the old file in place when the chunks fail', async () => {
    const { dir, write } = tempDir();
    const path = write('f.json', 'old');
    async function* failing() {
      yield 'new';
      throw new Error('source failed');
    }
    await expect(writeFileAtomic(path, failing())).rejects.toThrow('source failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['f.json']);
  });

  it('never leaves a half-written file when the writer is killed', async () => {
    const { dir } = tempDir();
    const target = join(dir, 'snapshot.json');
    const old = JSON.stringify([{ employeeID: 'OLD' }]);
    let interrupted = 0;
    let completed = 0;
    for (const afterMs of [0, 5, 15, 30, 60, 120, 180, 240, 300, Infinity]) {
      writeFileSync(target, old);
      const out = await killMidWrite(target, afterMs);
      const text = readFileSync(target, 'utf8');
      if (text === old) {
        interrupted++;
        expect(out).not.toContain('done');
      } else {
        completed++;
        const parsed = JSON.parse(text) as unknown[];
        expect(parsed).toHaveLength(RECORDS);
      }
    }
    // Both kinds of ending happened (the first kill lands mid-write, the last run finishes), and the
    // kills in between fall anywhere, around the rename included.
    expect(interrupted).toBeGreaterThan(0);
    expect(completed).toBeGreaterThan(0);
    // What a kill leaves is only a dot-named temp file beside the target, never the target half-done.
    for (const name of readdirSync(dir)) expect(name === 'snapshot.json' || /^\.snapshot\.json\.\d+\.[0-9a-f]+\.tmp$/.test(name)).toBe(true);
  });
});

describe('writeBytesAtomic', () => {
  it('writes more chunks than one system call takes (1,024), in order and whole, and returns what was made meanwhile', async () => {
    const { dir } = tempDir();
    const path = join(dir, 'body.json');
    const chunks = Array.from({ length: 2500 }, (_, i) => Buffer.alloc(1000 + (i % 7), 48 + (i % 10)));
    let seenMeanwhile: boolean | undefined;
    const made = await writeBytesAtomic(path, chunks, 0o600, () => {
      // Called while the bytes are being written: nothing is at the target yet.
      seenMeanwhile = existsSync(path);
      return 'facts';
    });
    expect(made).toBe('facts');
    expect(seenMeanwhile).toBe(false);
    const expected = Buffer.concat(chunks);
    const written = readFileSync(path);
    expect(written.length).toBe(expected.length);
    expect(written.equals(expected)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['body.json']);
  });

  it('leaves the old file in place and no temp file when what is made meanwhile fails', async () => {
    const { dir, write } = tempDir();
    const path = write('body.json', 'old');
    await expect(
      writeBytesAtomic(path, [Buffer.alloc(300_000, 49)], 0o600, () => {
        throw new Error('facts failed');
      }),
    ).rejects.toThrow('facts failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['body.json']);
  });

  it('never writes through a symbolic link where the file belongs', async () => {
    const { dir, write } = tempDir();
    const elsewhere = write('elsewhere.txt', 'keep');
    symlinkSync(elsewhere, join(dir, 'body.json'));
    let called = false;
    await expect(writeBytesAtomic(join(dir, 'body.json'), [Buffer.from('[]')], 0o600, () => (called = true))).rejects.toBeInstanceOf(NotAFile);
    expect(called).toBe(false);
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep');
  });
});

describe('linkFileAtomic', () => {
  it('gives a complete file a second name, and leaves nothing else behind', async () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, 'a.json'), '[1]');
    writeFileSync(join(dir, 'b.json'), '[0]');
    expect(await linkFileAtomic(join(dir, 'a.json'), join(dir, 'b.json'))).toBe(true);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('[1]');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });

  it('says false and changes nothing when it cannot link (here: the file is gone)', async () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, 'b.json'), '[0]');
    expect(await linkFileAtomic(join(dir, 'missing.json'), join(dir, 'b.json'))).toBe(false);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('[0]');
    expect(readdirSync(dir)).toEqual(['b.json']);
  });

  it('never replaces a symbolic link where the file belongs', async () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, 'a.json'), '[1]');
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'b.json'));
    await expect(linkFileAtomic(join(dir, 'a.json'), join(dir, 'b.json'))).rejects.toBeInstanceOf(NotAFile);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });
});
