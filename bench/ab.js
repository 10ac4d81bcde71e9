// `node bench/ab.js`: is each optimisation still worth keeping? Builds variants of the current dist/
// with one optimisation taken out each (a patch of the built JavaScript, in bench/out/ab/), then runs
// the 1M dry run of each, interleaved (current, variant 1, variant 2, …, current, …), so a busy machine
// weighs on all alike. Prints the median wall time, CPU time and peak RSS of each, and its CPU time
// against the current build: an optimisation stays when taking it out costs at least 5 %.
//
//   node bench/ab.js [--runs N] [--only name,name] [--base DIR] [--baseline] [--record]
//
// --baseline: the dry run is the repeat upload, against a recorded snapshot of the file's own records.
// --base DIR adds another build (a directory holding bin/ and dist/, e.g. an older commit) as a variant.
// --record appends the result to bench/AB-RESULTS.json (bench/out/ab.json always holds the last run).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generated } from './lib/generate.js';
import { median, run } from './lib/measure.js';
import { BASELINE_URL, recordBaseline } from './lib/baseline.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const OUT = join(HERE, 'out');

/**
 * Each variant: the built files to patch, and what to replace with what (each must match once). The
 * optimisations measured and deleted (the field-by-field JSON writer, the Latin-1 runs, the diff's
 * runs in step) are no longer here; docs/performance.md keeps their measurements.
 */
const VARIANTS = {
  'zod for every record (no fast check)': {
    name: 'no-fast-check',
    patches: [['validate/index.js', 'this.accepts = ACCEPTS[kind];', 'this.accepts = () => false;']],
  },
  'NFC and character checks on every record (no plain mark)': {
    name: 'no-plain-mark',
    patches: [
      ['read/csv-parser.js', 'plain: notPlain >= i\n', 'plain: false\n'],
      ['read/csv-parser.js', 'plain: notPlain >= i && breaks === 0 && !tabs', 'plain: false'],
    ],
  },
  'JSON.stringify for every body (no byte writer)': {
    name: 'json-stringify',
    patches: [['validate/index.js', 'this.bodies.pushRecord(data);', 'this.bodies.push(JSON.stringify(data));']],
  },
  'a character at a time for every record (no quote-free cut)': {
    name: 'no-quote-free-cut',
    patches: [['read/csv-parser.js', 'if (end < quote && ', 'if (false && end < quote && ']],
  },
  'its own copy of the baseline records (no shared bytes; with --baseline)': {
    name: 'no-shared-bytes',
    patches: [['pipeline/plan.js', 'validator.bodies.shareWith(input.baseline.records);', '{}']],
  },
  'the unfinished record joined to the whole next chunk (a rope, flattened)': {
    name: 'rope',
    patches: [['read/csv-parser.js', 'const lf = this.rest && !this.held.length ? chunk.indexOf("\\n") : -1;', 'const lf = -1;']],
  },
  'reads of 256 KiB (strings and buffers in pages of their own)': {
    name: 'reads-256k',
    patches: [['read/index.js', 'const READ_SIZE = 32768;', 'const READ_SIZE = 262144;']],
  },
  "a large file read by a file stream (each read a round trip to libuv's thread pool)": {
    name: 'file-stream',
    patches: [['read/index.js', 'if (size !== void 0) {', 'if (size !== void 0 && size <= READ_AT_ONCE) {']],
  },
  "chunks in V8's own memory, not shared (Buffer.allocUnsafe)": {
    name: 'unshared-chunks',
    patches: [
      [
        'contract/json-array.js',
        'const sharedMemory = (bytes) => Buffer.from(new SharedArrayBuffer(bytes));',
        'const sharedMemory = (bytes) => Buffer.allocUnsafe(bytes);',
      ],
    ],
  },
  'a Map of keys (no sorted key list)': {
    name: 'map-keys',
    patches: [
      ['validate/key-index.js', 'var KeyList = class {', 'var SortedKeyList = class {'],
      ['validate/key-index.js', 'function runOf', `${mapKeyList()}\nfunction runOf`],
    ],
  },
};

/** The plain alternative to KeyList: a Map from key to its first entry, checked as each key is added. */
function mapKeyList() {
  return `class KeyList {
  constructor(recall, options = {}) { this.firsts = new Map(); this.found = []; this.entries = 0; }
  get size() { return this.entries; }
  add(key) {
    const entry = this.entries++;
    if (key === undefined) return false;
    const first = this.firsts.get(key);
    if (first === undefined) { this.firsts.set(key, entry); return false; }
    this.found.push({ entry, first });
    return true;
  }
  finish() { return this.found; }
  has(key) { return this.firsts.has(key); }
}`;
}

function options(argv) {
  const o = { runs: 5, only: undefined, base: undefined, baseline: false, record: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') o.runs = Math.max(1, Number(argv[++i]) || 1);
    else if (argv[i] === '--only') o.only = argv[++i].split(',');
    else if (argv[i] === '--base') o.base = argv[++i];
    else if (argv[i] === '--baseline') o.baseline = true;
    else if (argv[i] === '--record') o.record = true;
    else throw new Error(`unknown option ${argv[i]}; use --runs N  --only name,name  --base DIR  --baseline  --record`);
  }
  return o;
}

/** A copy of bin/, dist/ and package.json under bench/out/ab/NAME (so node_modules resolves), patched and bundled. */
function variant(name, patches) {
  const dir = join(OUT, 'ab', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  rmSync(join(dir, 'dist', 'program'), { recursive: true, force: true });
  for (const [file, from, to] of patches) {
    const path = join(dir, 'dist', file);
    const text = readFileSync(path, 'utf8');
    if (text.split(from).length !== 2) throw new Error(`${name}: '${from}' is not in ${file} exactly once; the patch is out of date`);
    writeFileSync(path, text.replace(from, to));
  }
  // The bin runs the bundled program: bundled again from the patched files, as the build does.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-program.mjs'), join(dir, 'dist')], { stdio: 'inherit' });
  return join(dir, 'bin', 'upload.js');
}

const o = options(process.argv.slice(2));
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('build first: npm run build');
const file = generated(OUT, 'team-members', 1_000_000, '1m').path;
const builds = [{ label: 'current build', bin: join(ROOT, 'bin', 'upload.js') }];
for (const [label, v] of Object.entries(VARIANTS)) if (!o.only || o.only.includes(v.name)) builds.push({ label, bin: variant(v.name, v.patches) });
if (o.base) builds.push({ label: `build in ${o.base}`, bin: join(o.base, 'bin', 'upload.js') });

const scratch = mkdtempSync(join(tmpdir(), 'su-ab-'));
const state = join(scratch, 'state');
const records = o.baseline ? await recordBaseline(builds[0].bin, file, state, scratch) : undefined;
const against = o.baseline ? ['--base-url', BASELINE_URL] : [];
const before = loadavg();
const started = Date.now();
const runs = builds.map(() => []);
for (let i = 0; i < o.runs; i++) {
  for (const [b, build] of builds.entries()) {
    const r = await run(process.execPath, [build.bin, 'team-members', file, '--dry-run', '--json', ...against, '--state', state]);
    const report = JSON.parse(r.stdout);
    if (report.outcome !== 'dry-run') throw new Error(`${build.label}: outcome ${report.outcome}: ${r.stderr.slice(-300)}`);
    if (records !== undefined && report.diff.unchanged !== records) throw new Error(`${build.label}: the baseline was not used`);
    runs[b].push(r);
    process.stderr.write(`${build.label}: ${r.wallMs} ms wall, ${r.cpuMs} ms CPU, ${r.rssMB} MB\n`);
  }
}
const after = loadavg();
rmSync(scratch, { recursive: true, force: true });

const rows = builds.map((build, b) => ({
  build: build.label,
  wallS: median(runs[b].map((r) => r.wallMs)) / 1000,
  cpuS: median(runs[b].map((r) => r.cpuMs)) / 1000,
  peakRssMB: median(runs[b].map((r) => r.rssMB)),
  // The least of each: on a shared machine whose other tenants come and go (a run 5× slower now and
  // then), the quickest run is the one least disturbed.
  leastWallS: Math.min(...runs[b].map((r) => r.wallMs)) / 1000,
  leastCpuS: Math.min(...runs[b].map((r) => r.cpuMs)) / 1000,
}));
for (const row of rows) row.cpuVsCurrent = Number((row.cpuS / rows[0].cpuS).toFixed(3));
const result = {
  what: `1M team-member dry run${o.baseline ? ' with the snapshot baseline' : ''}, median of ${o.runs} interleaved runs`,
  node: process.version,
  cpus: `${cpus().length} × ${cpus()[0]?.model.trim()}`,
  load: { before: before.map((x) => Number(x.toFixed(2))), after: after.map((x) => Number(x.toFixed(2))) },
  seconds: Math.round((Date.now() - started) / 1000),
  rows,
};
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('build', 44)}  wall s  CPU s  peak MB  CPU vs current  least wall s  least CPU s`);
for (const r of rows)
  console.log(
    `${pad(r.build, 44)}  ${pad(r.wallS.toFixed(2), 6)}  ${pad(r.cpuS.toFixed(2), 5)}  ${pad(r.peakRssMB, 7)}  ${pad(`${r.cpuVsCurrent.toFixed(2)}×`, 14)}  ${pad(r.leastWallS.toFixed(2), 12)}  ${r.leastCpuS.toFixed(2)}`,
  );
console.log(`\n${result.what}; node ${result.node}; load ${result.load.before.join(' ')} → ${result.load.after.join(' ')}; ${result.seconds} s`);
writeFileSync(join(OUT, 'ab.json'), `${JSON.stringify(result, null, 2)}\n`);
if (o.record) {
  // Every recorded run is kept (newest last): each decision to keep or delete rests on one of them.
  const path = join(HERE, 'AB-RESULTS.json');
  const runs = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : [];
  writeFileSync(path, `${JSON.stringify([...(Array.isArray(runs) ? runs : [runs]), result], null, 2)}\n`);
}
