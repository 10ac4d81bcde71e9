// `node scripts/test-durations.mjs REPORT.json`: the suite's slowest files and how long each took, from
// a vitest JSON report (`npx vitest run --reporter=json --outputFile=REPORT.json`, on an idle machine),
// written to test/setup/durations.json. The suite starts the longest files first (vitest.config.ts):
// on two cores, a 15-second file started last is a 15-second tail. Refresh it when files are added or
// become slow; a stale entry only makes the order a little worse.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const [report] = process.argv.slice(2);
if (!report) throw new Error('usage: node scripts/test-durations.mjs REPORT.json');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((f) => [relative(root, f.name), Math.round((f.endTime - f.startTime) / 100) / 10])
    .filter(([, seconds]) => seconds >= 2)
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync(join(root, 'test', 'setup', 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files of 2 s or more written to test/setup/durations.json`);
