// Replacing a file on Windows while a scanner or backup agent holds it open fails for a moment with
// EPERM/EBUSY/EACCES: the rename is tried again for a while. Elsewhere those codes are real and final.
import { readFileSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renameRetrying } from '../../src/files/rename.js';
import { tempDir } from '../helpers/tmp.js';

const failing = (code: string) => Object.assign(new Error(`${code}: operation not permitted, rename`), { code });

/** A real rename that the first `n` calls refuse with `code`, as a held file does on Windows. */
function heldFor(n: number, code: string) {
  let calls = 0;
  const op = async (from: string, to: string) => {
    calls++;
    if (calls <= n) throw failing(code);
    await rename(from, to);
  };
  return { op, calls: () => calls };
}

function files() {
  const t = tempDir();
  const from = t.write('.head.json.tmp', 'new');
  const to = t.write('head.json', 'old');
  return { from, to, dir: t.dir };
}

describe('renameRetrying', () => {
  it.each(['EPERM', 'EBUSY', 'EACCES'])('on Windows waits out a passing %s, then replaces the file', async (code) => {
    const { from, to } = files();
    const held = heldFor(3, code);
    await renameRetrying(from, to, { platform: 'win32', rename: held.op });
    expect(held.calls()).toBe(4);
    expect(readFileSync(to, 'utf8')).toBe('new');
  });

  it('on Windows gives up after its patience, with the last error', async () => {
    const { from, to } = files();
    const held = heldFor(Infinity, 'EBUSY');
    // A file held for ever: without the patience this would never end.
    await expect(renameRetrying(from, to, { platform: 'win32', rename: held.op, patienceMs: 200 })).rejects.toMatchObject({ code: 'EBUSY' });
    expect(held.calls()).toBeGreaterThan(2);
    expect(readFileSync(to, 'utf8')).toBe('old');
  });

  it('elsewhere fails at once: EPERM there is a real permission problem', async () => {
    const { from, to } = files();
    const held = heldFor(1, 'EPERM');
    await expect(renameRetrying(from, to, { platform: 'linux', rename: held.op })).rejects.toMatchObject({ code: 'EPERM' });
    expect(held.calls()).toBe(1);
  });

  it('never retries an error a wait cannot cure', async () => {
    const { dir, to } = files();
    await expect(renameRetrying(join(dir, 'missing'), to, { platform: 'win32' })).rejects.toMatchObject({ code: 'ENOENT' });
    writeFileSync(to, 'still old');
    expect(readFileSync(to, 'utf8')).toBe('still old');
  });
});
