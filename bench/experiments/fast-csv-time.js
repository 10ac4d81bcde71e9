// EXPERIMENT: the string parser above against csv-parse, both from decoded text.
// Usage: node bench/experiments/fast-csv-time.js FILE [check]
import { createReadStream } from 'node:fs';
import { decodeText } from '../../dist/read/decode.js';
import { readRecords } from '../../dist/read/index.js';
import { FastCsv } from './fast-csv.js';

const [file, check] = process.argv.slice(2);
const t0 = performance.now();
const c0 = process.cpuUsage();
const p = new FastCsv(',');
let n = 0;
let first = true;
const mine = [];
for await (const text of decodeText(createReadStream(file, { highWaterMark: 256 * 1024 }), undefined, file)) {
  for (const r of p.push(text)) { if (first) { first = false; continue; } n++; if (check) mine.push(r); }
}
for (const r of p.push('', true)) { n++; if (check) mine.push(r); }
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ parser: 'fast-csv', n, ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000) }));
if (check) {
  let i = 0;
  for await (const raw of readRecords(file, { source: file })) {
    const m = mine[i++];
    if (!m || m.line !== raw.line || JSON.stringify(m.cells) !== JSON.stringify(raw.cells)) { console.log('DIFF at', i, m, raw); process.exit(1); }
  }
  console.log('same records and lines as readCsv:', i === mine.length, i);
}
