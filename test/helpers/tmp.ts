import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory; files written into it by name. */
export function tempDir(): { dir: string; write(name: string, content: string | Buffer): string } {
  const dir = mkdtempSync(join(tmpdir(), 'su-'));
  return {
    dir,
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}
