// Summarises a .cpuprofile (node --cpu-prof): self time by function and by source file, so the
// time of a run can be split by stage. Usage: node bench/profile-summary.js FILE.cpuprofile [top]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map(); // node id → µs
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (cf) => {
  const url = cf.url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, 'npm:')
    .replace(/.*\/dist\//, 'dist/');
  return url || '(native)';
};
const fns = new Map();
const files = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const fn = `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
  fns.set(fn, (fns.get(fn) ?? 0) + us);
  const f = where(cf).replace(/^(npm:[^/]+(?:\/[^/]+)?)\/.*/, '$1');
  files.set(f, (files.get(f) ?? 0) + us);
}
const pct = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms\n\nby file (self time):`);
for (const [f, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
console.log('\nby function (self time):');
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);

// Inclusive time of our own stage functions (a frame counted once per sample even when recursive).
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, us] of self) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const cf = byId.get(at).callFrame;
    if (!cf.url.includes('/dist/') && !cf.url.includes('node_modules/zod') && !cf.url.includes('node_modules/csv-parse')) continue;
    const key = `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
console.log('\nby function (inclusive, our code, zod and csv-parse):');
for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
