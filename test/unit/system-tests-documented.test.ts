// docs/development.md ("Two runs") lists what `npm run test:system` needs and which files need each:
// the same list vitest.config.ts runs (test/setup/system-tests.ts), and the same closing line `npm test`
// prints. A new program, file or line is documented, or this fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { notRunLine, SYSTEM_FILES, SYSTEM_NEEDS } from '../setup/system-tests.js';

const docs = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
const row = (what: string) => docs.split('\n').find((l) => l.startsWith(`| ${what.replace(/ \(.*/, '')} |`));

describe('the programs npm cannot install, in docs/development.md', () => {
  it.each(SYSTEM_NEEDS.map((n) => [n.what, n] as const))('%s: a row naming how to get it and every file that needs it', (_what, need) => {
    const line = row(need.what);
    expect(line, `no row for ${need.what}`).toBeDefined();
    for (const file of need.files) expect(line).toContain(file);
  });

  it('the table names exactly the files of the system run', () => {
    const start = docs.indexOf('| Needs |');
    const files = docs.slice(start, docs.indexOf('\n\n', start)).match(/test\/[\w/.-]+\.test\.ts/g) ?? [];
    expect(new Set(files)).toEqual(new Set(SYSTEM_FILES));
  });

  it("quotes npm test's closing line as it prints it", () => {
    expect(docs).toContain(`    ${notRunLine()}\n`);
  });
});
