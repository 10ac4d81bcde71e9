// `npm run bench`: generates realistic files (cached in bench/out/) and measures, side by side, our
// CLI's dry run against bare csv-parse (the library floor) and Miller, an upload against curl posting
// the same JSON to the same sandbox, and start-up against a bare node. Prints a table and the targets
// of issue 6, and writes bench/out/result.json (with --record, also bench/RESULTS.json).
//
//   node bench/run.js [--only 100k,1m,3m,stores,upload,help,baseline,sink,everyday] [--repeat N] [--record]
//
// Without --repeat, the 1M comparisons the verdict judges by a ratio run 7 times each side (GOAL_RUNS),
// the rest once; --repeat N runs every case N times.
//
// Issue 14's rows: the dry run with the snapshot baseline (the repeat upload), an upload to a sink (what
// the client alone costs to send), and a 10-row dry run against node -e 0 (start-up). Issue 44's: the
// uDSV floor and our parse stage alone beside each dry run, and the everyday file (50,000 team members,
// CSV and xlsx) against node -e 0 and the 10-row run.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generated, generatedWorkbook } from './lib/generate.js';
import { hasGnuTime, installed, median, run } from './lib/measure.js';
import { table, udsvRatios, udsvText, verdict, verdictText } from './lib/report.js';
import { startSandbox } from './lib/sandbox.js';
import { BASELINE_URL, recordBaseline } from './lib/baseline.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');
const BIN = join(HERE, '..', 'bin', 'upload.js');
const FLOOR = join(HERE, 'lib', 'floor-csv-parse.js');
const UDSV = join(HERE, 'lib', 'floor-udsv.js');
const PARSE = join(HERE, 'lib', 'parse-ours.js');
const SIZES = { '100k': 100_000, '1m': 1_000_000, '3m': 3_000_000 };
const MAX_BODY = 2 * 1024 * 1024 * 1024;

function options(argv) {
  const o = { only: ['100k', '1m', '3m', 'stores', 'upload', 'help', 'baseline', 'sink', 'everyday'], repeat: undefined, record: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only' || argv[i] === '--sizes') o.only = argv[++i].toLowerCase().split(',');
    else if (argv[i] === '--repeat') o.repeat = Math.max(1, Number(argv[++i]) || 1);
    else if (argv[i] === '--record') o.record = true;
    else throw new Error(`unknown option ${argv[i]}; use --only 100k,1m,3m,stores,upload,help,baseline,sink,everyday  --repeat N  --record`);
  }
  // Naming only groups keeps every size; naming only sizes keeps every group.
  if (!o.only.some((x) => x in SIZES)) o.only.push('100k', '1m', '3m');
  if (o.only.every((x) => x in SIZES)) o.only.push('stores', 'upload', 'help', 'baseline', 'sink', 'everyday');
  return o;
}

const o = options(process.argv.slice(2));
/**
 * How many interleaved runs of each side a comparison takes: --repeat N for all; without it, the 1M
 * comparisons the verdict judges by a ratio (the dry run against the floor, with the baseline, the two
 * uploads against their dry runs) take GOAL_RUNS, the rest one. One pair is no verdict on this host: a
 * run of everything missed the 1.1× upload line on its one pair (1.16×, 1.19×) where --repeat 7 runs of
 * the same code met it (docs/performance.md, "Round 6, eleventh session").
 */
const GOAL_RUNS = 7;
const runsOf = (size) => o.repeat ?? (size === '1m' ? GOAL_RUNS : 1);
const sizes = Object.keys(SIZES).filter((s) => o.only.includes(s));
const label = (size) => size.toUpperCase();
const rows = [];
const scratch = mkdtempSync(join(tmpdir(), 'su-bench-'));
const log = (line) => process.stderr.write(`${line}\n`);
const mlr = installed('mlr');

/** The median run of `repeat`, by wall time. */
async function measured(repeat, once) {
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await once());
  return runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
}

function expectOutcome(result, outcome, what) {
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`${what}: no JSON report (exit ${result.code}): ${result.stderr.slice(-500)}`);
  }
  if (report.outcome !== outcome) throw new Error(`${what}: outcome ${report.outcome}, expected ${outcome}: ${JSON.stringify(report.error)}`);
  return report;
}

/** A floor's run, checked: it printed the number of records it parsed (a parser that stopped early is no floor). */
async function counted(script, file, what) {
  const r = await run(process.execPath, [script, file]);
  if (r.code !== 0 || !/^\d+\n$/.test(r.stdout)) throw new Error(`${what} of ${file} failed (exit ${r.code}): ${r.stderr.slice(-300)}`);
  return r;
}

async function dryRunVersusFloor(kind, file, name, runs) {
  const state = join(scratch, 'state');
  const floor = [];
  const udsv = [];
  const parse = [];
  const ours = [];
  const miller = [];
  for (let i = 0; i < runs; i++) {
    // Interleaved, so a busy machine weighs on both sides alike.
    floor.push(await counted(FLOOR, file, 'the csv-parse floor'));
    udsv.push(await counted(UDSV, file, 'the uDSV floor'));
    parse.push(await counted(PARSE, file, 'our parse stage'));
    const r = await run(process.execPath, [BIN, kind, file, '--dry-run', '--json', '--state', state]);
    expectOutcome(r, 'dry-run', `dry run of ${file}`);
    ours.push(r);
    if (mlr) miller.push(await run('mlr', ['--icsv', '--ojson', 'cat', file], { stdout: 'ignore' }));
  }
  const pairs = paired(ours, floor);
  const mid = (runs) => [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
  const f = mid(floor);
  const u = mid(udsv);
  const p = mid(parse);
  const d = mid(ours);
  const times = (a, b, what) => `${(a.wallMs / b.wallMs).toFixed(2)}× ${what} (cpu ${(a.cpuMs / b.cpuMs).toFixed(2)}×)`;
  rows.push({ label: `csv-parse floor, ${name}`, ...pick(f), note: times(f, u, 'uDSV') });
  rows.push({ label: `uDSV floor, ${name}`, ...pick(u) });
  rows.push({ label: `our parse stage alone, ${name}`, ...pick(p), note: `${times(p, u, 'uDSV')}; ${times(p, f, 'csv-parse')}` });
  rows.push({
    label: `dry run, ${name}`,
    ...pick(d),
    ...pairs,
    note: `${medianOf(runs)}${versus(pairs, d, f, 'floor')}; ${times(d, u, 'uDSV')}`,
  });
  rows.push(
    mlr
      ? { label: `mlr --icsv --ojson cat, ${name}`, ...pick(mid(miller)) }
      : { label: `mlr --icsv --ojson cat, ${name}`, wallMs: null, cpuMs: null, rssMB: null, note: 'Miller not installed' },
  );
}

const pick = (r) => ({ wallMs: r.wallMs, cpuMs: r.cpuMs, rssMB: r.rssMB });
const medianOf = (runs) => (runs > 1 ? `median of ${runs}; ` : '');

/**
 * The median of the ratios of runs made side by side (ours[i] / theirs[i], by wall time, or by `key`):
 * each pair ran seconds apart, in the same spell of a shared host, so a slow spell that falls on one
 * side's median and not the other's moves it less than it moves the ratio of the two sides' medians.
 * The verdict takes it (bench/lib/report.js); the ratio of medians is printed beside it.
 */
function pairwise(ours, theirs, key = 'wallMs') {
  const ratios = ratiosOf(ours, theirs, key);
  return ratios ? median(ratios) : null;
}
/** Each pair's ratio, in order; null when a side lacks the figure (no GNU time: no CPU time). */
function ratiosOf(ours, theirs, key) {
  const value = (r) => (typeof r === 'number' ? r : r[key]);
  const ratios = ours.map((r, i) => value(r) / value(theirs[i]));
  return ratios.length > 0 && ratios.every(Number.isFinite) ? ratios : null;
}
/**
 * A row's ratios to its other side: pairwise (the verdict's), by wall and CPU time, and the middle half
 * of the pairs' wall ratios (from 4 pairs), which shows how far this host's spells moved them.
 */
function paired(ours, theirs) {
  const wall = ratiosOf(ours, theirs, 'wallMs');
  const sorted = wall && wall.length >= 4 ? [...wall].sort((a, b) => a - b) : null;
  const n = sorted?.length ?? 0;
  return {
    pairWall: wall ? median(wall) : null,
    pairCpu: pairwise(ours, theirs, 'cpuMs'),
    pairSpread: sorted ? [sorted[Math.floor((n - 1) / 4)], sorted[Math.ceil((3 * (n - 1)) / 4)]] : null,
  };
}
/** `1.05× what (cpu 1.10×; middle half of the pairs 0.97–1.12×), medians 1.08× (cpu 1.12×)`: the pairwise ratios first, then the ratio of the medians. */
const versus = (pairs, a, b, what) =>
  `${x2(pairs.pairWall)}× ${what} (cpu ${x2(pairs.pairCpu)}×${pairs.pairSpread ? `; middle half of the pairs ${pairs.pairSpread.map(x2).join('–')}×` : ''}), medians ${x2(a.wallMs / b.wallMs)}× (cpu ${x2(a.cpuMs / b.cpuMs)}×)`;
const x2 = (x) => (x != null && Number.isFinite(x) ? x.toFixed(2) : '—');

async function uploadVersusCurl(size, file, runs) {
  const name = `${label(size)} team members`;
  const body = join(OUT, `body-team-members-${size}.json`);
  const once = async (client) => {
    const dataDir = mkdtempSync(join(scratch, 'sandbox-'));
    const sandbox = await startSandbox({ bin: BIN, dataDir, maxBody: MAX_BODY });
    try {
      const result = await client(sandbox);
      return { ...result, sandboxMB: sandbox.peakMB() };
    } finally {
      await sandbox.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const cli = await measured(runs, () =>
    once(async (sandbox) => {
      const env = { ...process.env, UPLOAD_TOKEN: sandbox.token, UPLOAD_BASE_URL: sandbox.url };
      const r = await run(process.execPath, [BIN, 'team-members', file, '--yes', '--no-baseline', '--json', '--state', join(scratch, 'state')], { env });
      expectOutcome(r, 'uploaded', `upload of ${file}`);
      // The JSON body curl posts: exactly what the sandbox stored, fetched once and kept.
      if (!existsSync(body) || statSync(body).mtimeMs < statSync(file).mtimeMs) {
        const got = await run('curl', ['-sf', '-o', body, '-H', `@${sandbox.curlHeaders(join(scratch, 'h'))}`, `${sandbox.url}/integrations/teamMembers`], {
          plain: true,
        });
        if (got.code !== 0) throw new Error(`could not fetch the stored body (curl exit ${got.code})`);
      }
      return r;
    }),
  );
  rows.push({ label: `upload ${name} (CLI)`, ...pick(cli), sandboxMB: cli.sandboxMB, note: `sandbox peak ${cli.sandboxMB} MB` });
  const curl = await measured(runs, () =>
    once(async (sandbox) => {
      const args = [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-X',
        'POST',
        '-T',
        body,
        '-H',
        `@${sandbox.curlHeaders(join(scratch, 'h'))}`,
        `${sandbox.url}/integrations/teamMembers`,
      ];
      const r = await run('curl', args);
      if (r.stdout.trim() !== '200') throw new Error(`curl upload answered ${r.stdout}`);
      return r;
    }),
  );
  const bodyMB = Math.round(statSync(body).size / 1e5) / 10;
  rows.push({
    label: `curl POST of the same JSON, ${name}`,
    ...pick(curl),
    sandboxMB: curl.sandboxMB,
    bodyMB,
    note: `${bodyMB} MB body, ${(bodyMB / (curl.wallMs / 1000)).toFixed(0)} MB/s; sandbox peak ${curl.sandboxMB} MB; CLI ${(cli.wallMs / curl.wallMs).toFixed(2)}× curl`,
  });
}

async function startup(runs = 15) {
  const help = [];
  const bare = [];
  const dry = [];
  const stored = [];
  const ten = generated(OUT, 'team-members', 10, '10').path;
  // The same dry run against a store of 20 uploads, as a team's configured runs and the nightly sync's
  // are: the store opened, the latest upload's layout read, its snapshot checked. Issue 44's line is
  // the run without one; this row has no goal (docs/performance.md, "Round 6, ninth session").
  const sink = await startSink(10);
  const state20 = join(scratch, 'state-20-uploads');
  const env = { ...process.env, UPLOAD_TOKEN: 'bench-token-123', UPLOAD_BASE_URL: sink.url };
  try {
    for (let i = 0; i < 20; i++) {
      const up = await run(process.execPath, [BIN, 'team-members', ten, '--yes', '--json', '--state', state20, ...(i === 0 ? ['--no-baseline'] : [])], { env });
      expectOutcome(up, 'uploaded', `upload ${i + 1} of 20 of the 10-row file`);
    }
  } finally {
    await sink.close();
  }
  for (let i = 0; i < runs; i++) {
    bare.push((await run(process.execPath, ['-e', '0'], { plain: true })).wallMs);
    const r = await run(process.execPath, [BIN, '--help'], { plain: true });
    if (r.code !== 0 || !r.stdout.includes('Usage: upload')) throw new Error(`upload --help failed: ${r.stderr}`);
    help.push(r.wallMs);
    const d = await run(process.execPath, [BIN, 'team-members', ten, '--dry-run', '--quiet', '--state', join(scratch, 'state')], { plain: true });
    if (d.code !== 0) throw new Error(`10-row dry run failed: ${d.stderr}`);
    dry.push(d.wallMs);
    const withStore = await run(process.execPath, [BIN, 'team-members', ten, '--dry-run', '--quiet', '--state', state20], { env, plain: true });
    if (withStore.code !== 0) throw new Error(`10-row dry run against a store of 20 uploads failed: ${withStore.stderr}`);
    stored.push(withStore.wallMs);
  }
  rows.push({ label: 'node -e 0', wallMs: median(bare), cpuMs: null, rssMB: null, note: `median of ${runs}` });
  rows.push({
    label: 'upload --help',
    wallMs: median(help),
    cpuMs: null,
    rssMB: null,
    pairWall: pairwise(help, bare),
    note: `median of ${runs}; ${x2(pairwise(help, bare))}× node -e 0, medians ${x2(median(help) / median(bare))}×`,
  });
  rows.push({
    label: 'dry run, 10 team members',
    wallMs: median(dry),
    cpuMs: null,
    rssMB: null,
    pairWall: pairwise(dry, bare),
    note: `median of ${runs}; ${x2(pairwise(dry, bare))}× node -e 0, medians ${x2(median(dry) / median(bare))}×`,
  });
  rows.push({
    label: 'dry run, 10 team members, a store of 20 uploads',
    wallMs: median(stored),
    cpuMs: null,
    rssMB: null,
    note: `median of ${runs}; ${x2(pairwise(stored, bare))}× node -e 0, medians ${x2(median(stored) / median(bare))}× (no goal)`,
  });
}

/**
 * The everyday file (issue 44): the 50,000 team members HR really has, as CSV and as an xlsx workbook,
 * each dry-run end to end, interleaved with `node -e 0` and the 10-row dry run it is reported against.
 */
async function everyday(runs = Math.max(5, o.repeat ?? 1)) {
  const csv = generated(OUT, 'team-members', 50_000, '50k').path;
  const xlsx = (await generatedWorkbook(OUT, 'team-members', 50_000, '50k')).path;
  const ten = generated(OUT, 'team-members', 10, '10').path;
  const state = join(scratch, 'state');
  const bare = [];
  const small = [];
  const sides = { csv: [], xlsx: [] };
  for (let i = 0; i < runs; i++) {
    bare.push((await run(process.execPath, ['-e', '0'], { plain: true })).wallMs);
    const d = await run(process.execPath, [BIN, 'team-members', ten, '--dry-run', '--quiet', '--state', state], { plain: true });
    if (d.code !== 0) throw new Error(`10-row dry run failed: ${d.stderr}`);
    small.push(d.wallMs);
    for (const [format, file] of [
      ['csv', csv],
      ['xlsx', xlsx],
    ]) {
      const r = await run(process.execPath, [BIN, 'team-members', file, '--dry-run', '--json', '--state', state]);
      const report = expectOutcome(r, 'dry-run', `dry run of ${file}`);
      if (report.records !== 50_000) throw new Error(`${file}: ${report.records} records read, not 50,000`);
      sides[format].push(r);
    }
  }
  const mid = (xs) => xs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor((xs.length - 1) / 2)];
  const nodeMs = median(bare);
  const smallMs = median(small);
  for (const [format, label] of [
    ['csv', 'CSV'],
    ['xlsx', 'xlsx'],
  ]) {
    const r = mid(sides[format]);
    rows.push({
      label: `dry run, 50K team members (${label})`,
      ...pick(r),
      note: `median of ${runs}; ${(r.wallMs / nodeMs).toFixed(1)}× node -e 0 (${Math.round(nodeMs)} ms), ${(r.wallMs / smallMs).toFixed(1)}× the 10-row run (${Math.round(smallMs)} ms)`,
      nodeMs,
      smallMs,
    });
  }
}

/**
 * The repeat upload, the case every run after the first is: a dry run against a recorded baseline of
 * the same records (the store holds the file's own body as its latest upload), next to the floor.
 */
async function dryRunWithBaseline(file, name, runs) {
  const state = join(scratch, `baseline-state-${name.replace(/\W+/g, '-')}`);
  const baseUrl = BASELINE_URL;
  const records = await recordBaseline(BIN, file, state, scratch);
  const floor = [];
  const ours = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await run(process.execPath, [FLOOR, file]));
    const r = await run(process.execPath, [BIN, 'team-members', file, '--dry-run', '--json', '--base-url', baseUrl, '--state', state]);
    const report = expectOutcome(r, 'dry-run', `dry run of ${file} against its baseline`);
    if (report.diff.unchanged !== records) throw new Error(`the baseline was not used: ${JSON.stringify(report.diff)}`);
    ours.push(r);
  }
  const pairs = paired(ours, floor);
  const mid = (runs) => [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
  const f = mid(floor);
  const d = mid(ours);
  rows.push({
    label: `dry run with the snapshot baseline, ${name}`,
    ...pick(d),
    floorWallMs: f.wallMs,
    floorCpuMs: f.cpuMs,
    ...pairs,
    note: `${medianOf(runs)}${versus(pairs, d, f, 'floor')}`,
  });
}

/** An upload's row: its median run, its dry run's, and the pairwise ratios (the verdict's). */
function sinkRow(label, up, dry) {
  const pairs = paired(up, dry);
  const mid = (runs) => [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
  const d = mid(dry);
  const u = mid(up);
  rows.push({
    label,
    ...pick(u),
    dryWallMs: d.wallMs,
    dryCpuMs: d.cpuMs,
    ...pairs,
    note: `${medianOf(up.length)}${versus(pairs, u, d, 'its dry run')}`,
  });
}

/**
 * What the client alone costs to send: an upload to a sink that reads the body and answers at once,
 * against its own dry run. Twice: the first upload to a store (a state folder of its own each time, no
 * baseline), and again, to a store uploaded to before (the nightly sync).
 */
async function uploadToSink(file, name, records, runs) {
  const sink = await startSink(records);
  const { url } = sink;
  try {
    const dry = [];
    const up = [];
    for (let i = 0; i < runs; i++) {
      dry.push(await run(process.execPath, [BIN, 'team-members', file, '--dry-run', '--json', '--state', join(scratch, 'sink-dry')]));
      const r = await run(process.execPath, [BIN, 'team-members', file, '--yes', '--no-baseline', '--json', '--state', join(scratch, `sink-${i}`)], {
        env: { ...process.env, UPLOAD_TOKEN: 'bench-token-123', UPLOAD_BASE_URL: url },
      });
      expectOutcome(r, 'uploaded', `upload of ${file} to a sink`);
      up.push(r);
    }
    sinkRow(`upload to a sink, ${name}`, up, dry);
    // The nightly sync: a store uploaded to before, so the dry run and the upload both compare with its
    // latest upload (the same records); the upload spools its body into the store's folder as it plans
    // it (StateStore.spool), as the first does into the folder it makes. Seeded by one upload, not timed.
    const again = join(scratch, 'sink-again');
    const env = { ...process.env, UPLOAD_TOKEN: 'bench-token-123', UPLOAD_BASE_URL: url };
    const args = ['team-members', file, '--json', '--state', again];
    expectOutcome(await run(process.execPath, [BIN, ...args, '--yes', '--no-baseline'], { env }), 'uploaded', `first upload of ${file} to a sink`);
    const dryAgain = [];
    const upAgain = [];
    for (let i = 0; i < runs; i++) {
      const d = await run(process.execPath, [BIN, ...args, '--dry-run'], { env });
      if (expectOutcome(d, 'dry-run', `dry run of ${file} against its last upload`).diff.unchanged !== records)
        throw new Error('the last upload was not the baseline');
      dryAgain.push(d);
      const r = await run(process.execPath, [BIN, ...args, '--yes'], { env });
      expectOutcome(r, 'uploaded', `repeat upload of ${file} to a sink`);
      upAgain.push(r);
    }
    sinkRow(`upload to a sink again, ${name}`, upAgain, dryAgain);
  } finally {
    await sink.close();
  }
}

/** A node:http server on loopback that reads a body and answers at once, as the service does for `records` team members. */
async function startSink(records) {
  const { createServer } = await import('node:http');
  const sink = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `${records} team member(s) uploaded`, status: 200 }));
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${sink.address().port}`, close: () => new Promise((resolve) => sink.close(resolve)) };
}

const loadBefore = loadavg();
const started = Date.now();
try {
  log(`generating input files in ${OUT} (only those missing)…`);
  const files = {};
  for (const size of sizes) files[size] = generated(OUT, 'team-members', SIZES[size], size).path;
  const stores = o.only.includes('stores') ? ['pair', 'range'].map((l) => [l, generated(OUT, `store-cards-${l}`, 100_000, '100k').path]) : [];
  for (const size of sizes) {
    log(`dry run, team members ${label(size)}…`);
    await dryRunVersusFloor('team-members', files[size], `team members ${label(size)}`, runsOf(size));
  }
  if (o.only.includes('baseline')) {
    for (const size of sizes.filter((s) => s !== '100k')) {
      log(`dry run with a baseline, team members ${label(size)}…`);
      await dryRunWithBaseline(files[size], `team members ${label(size)}`, runsOf(size));
    }
  }
  if (o.only.includes('sink')) {
    for (const size of sizes.filter((s) => s !== '3m')) {
      log(`upload to a sink, team members ${label(size)}…`);
      await uploadToSink(files[size], `team members ${label(size)}`, SIZES[size], runsOf(size));
    }
  }
  for (const [layout, file] of stores) {
    log(`dry run, store cards 100K (${layout})…`);
    await dryRunVersusFloor('store-cards', file, `store cards 100K, ${layout === 'pair' ? '14 pair columns' : '7 range columns'}`, runsOf('100k'));
  }
  if (o.only.includes('upload')) {
    for (const size of sizes.filter((s) => s !== '100k')) {
      log(`upload, team members ${label(size)}…`);
      // The sandbox's ingest (issue 18's, judged in MB/s, no ratio of ours): once without --repeat.
      await uploadVersusCurl(size, files[size], o.repeat ?? 1);
    }
  }
  if (o.only.includes('help')) await startup();
  if (o.only.includes('everyday')) {
    log('dry run, the everyday file: 50K team members, CSV and xlsx…');
    await everyday();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const targets = verdict(rows);
const udsv = udsvRatios(rows);
const result = {
  when: new Date().toISOString(),
  node: process.version,
  cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
  loadavg: { before: loadBefore.map((x) => +x.toFixed(2)), after: loadavg().map((x) => +x.toFixed(2)) },
  peakRss: hasGnuTime ? 'GNU time %M' : 'VmHWM from /proc, polled',
  repeat: o.repeat ?? `${GOAL_RUNS} for the 1M comparisons, 1 for the rest`,
  seconds: Math.round((Date.now() - started) / 1000),
  rows,
  targets,
  udsv,
};
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
if (o.record) copyFileSync(join(OUT, 'result.json'), join(HERE, 'RESULTS.json'));
console.log(`${table(rows)}\n\n${verdictText(targets)}\n\n${udsvText(udsv)}\n`);
console.log(
  `node ${result.node}, ${result.cpus}, load ${result.loadavg.before.join(' ')} → ${result.loadavg.after.join(' ')}; ${result.seconds} s; written to ${join(OUT, 'result.json')}`,
);
// A shared machine's other tenants slow a run several times over now and then (docs/performance.md,
// "The machine, measured first"): one run of each side is no verdict on a ratio.
if (o.repeat === undefined && sizes.some((s) => s !== '1m') && targets.some((t) => t.met !== null))
  console.log(`note: the 1M comparisons ran ${GOAL_RUNS} times each side, interleaved; the other sizes' cases once (--repeat N runs every case N times)`);
else if (o.repeat !== undefined && o.repeat < 7 && targets.some((t) => t.met !== null))
  console.log(
    `note: each case ran ${o.repeat === 1 ? 'once' : `${o.repeat} times`}; on a shared machine a ratio settles only over more: run again with --repeat 7`,
  );
