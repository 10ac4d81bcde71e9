// The benchmark's table and its verdict against the targets of the issue.

const s = (ms) => (ms == null ? '—' : (ms / 1000).toFixed(ms < 1000 ? 3 : 2));
const mb = (v) => (v == null ? '—' : String(v));

export function table(rows) {
  const head = ['case', 'wall s', 'cpu s', 'peak RSS MB', 'note'];
  const body = rows.map((r) => [r.label, s(r.wallMs), s(r.cpuMs), mb(r.rssMB), r.note ?? '']);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(width[i]) : c.padStart(width[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** One target: measured against a limit (at most, or at least with `atLeast`); skipped when a side was not measured. */
function target(name, measured, limit, unit, atLeast = false) {
  if (measured == null || limit == null) return { name, measured: null, limit, met: null, note: 'not measured in this run' };
  return { name, measured: Math.round(measured * 100) / 100, limit, unit, met: atLeast ? measured >= limit : measured <= limit };
}

const ratio = (a, b) => (a != null && b ? a / b : null);
/**
 * A comparison's ratio as the verdict takes it: the median of its pairs' ratios (each run beside its
 * other side's, bench/run.js `pairwise`), which a slow spell of a shared host falling on one side's
 * median moves less than the ratio of the two medians; that ratio where the row has no pairs (a CPU
 * time missing from a run). Both are printed in the table.
 */
const judged = (row, key, a, b) => row?.[key] ?? ratio(a, b);

/**
 * Issue 18's targets first (issue 14's ratios, and peak memory no higher than before the bodies became
 * bytes: 480 MB for the dry run, 550 MB with a baseline or a send), then the earlier rounds' still in
 * force. Each ratio of runs made side by side is judged by the median of its pairs' ratios (`judged`).
 */
export function verdict(r) {
  const get = (label) => r.find((x) => x.label === label);
  const tm = (what, size) => get(`${what}, team members ${size}`);
  const up = (size) => get(`upload ${size} team members (CLI)`);
  const base = (size) => tm('dry run with the snapshot baseline', size);
  const sink = tm('upload to a sink', '1M');
  const again = tm('upload to a sink again', '1M');
  const curl = get('curl POST of the same JSON, 1M team members');
  const dry1m = tm('dry run', '1M');
  const floor1m = tm('csv-parse floor', '1M');
  const ten = get('dry run, 10 team members');
  const help = get('upload --help');
  const bare = get('node -e 0');
  return [
    target('dry run 1M ≤ 1.3× csv-parse floor (wall)', judged(dry1m, 'pairWall', dry1m?.wallMs, floor1m?.wallMs), 1.3, 'x'),
    target('  same, by CPU time (less sensitive to a busy machine)', judged(dry1m, 'pairCpu', dry1m?.cpuMs, floor1m?.cpuMs), 1.3, 'x'),
    target('dry run 1M peak RSS ≤ 480 MB', tm('dry run', '1M')?.rssMB, 480, 'MB'),
    target('  under 600 MB (issue 44)', tm('dry run', '1M')?.rssMB, 599, 'MB'),
    target('dry run 1M with the snapshot baseline ≤ 1.6× floor (wall)', judged(base('1M'), 'pairWall', base('1M')?.wallMs, base('1M')?.floorWallMs), 1.6, 'x'),
    target('  same, by CPU time', judged(base('1M'), 'pairCpu', base('1M')?.cpuMs, base('1M')?.floorCpuMs), 1.6, 'x'),
    target('  its peak RSS ≤ 550 MB', base('1M')?.rssMB, 550, 'MB'),
    target('dry run 3M with the snapshot baseline peak RSS < 3072 MB', base('3M')?.rssMB, 3072, 'MB'),
    target('upload 1M to a sink ≤ 1.1× its dry run (wall)', judged(sink, 'pairWall', sink?.wallMs, sink?.dryWallMs), 1.1, 'x'),
    target('  same, by CPU time', judged(sink, 'pairCpu', sink?.cpuMs, sink?.dryCpuMs), 1.1, 'x'),
    target('  its peak RSS ≤ 550 MB', sink?.rssMB, 550, 'MB'),
    target('  again, to a store uploaded to before (wall)', judged(again, 'pairWall', again?.wallMs, again?.dryWallMs), 1.1, 'x'),
    target('    same, by CPU time', judged(again, 'pairCpu', again?.cpuMs, again?.dryCpuMs), 1.1, 'x'),
    target('10-row dry run ≤ 2× node -e 0 (wall)', judged(ten, 'pairWall', ten?.wallMs, bare?.wallMs), 2, 'x'),
    target('upload --help ≤ 1.5× node -e 0 (wall)', judged(help, 'pairWall', help?.wallMs, bare?.wallMs), 1.5, 'x'),
    target('sandbox ingest of the 1M body by curl ≥ 80 MB/s', curl?.bodyMB && curl.wallMs ? curl.bodyMB / (curl.wallMs / 1000) : null, 80, 'MB/s', true),
    target('  sandbox peak RSS ≤ 2× the body', ratio(curl?.sandboxMB, curl?.bodyMB), 2, 'x'),
    target('dry run 3M peak RSS < 3072 MB', tm('dry run', '3M')?.rssMB, 3072, 'MB'),
    target('dry run 3M ≤ 3.3× dry run 1M (wall)', ratio(tm('dry run', '3M')?.wallMs, tm('dry run', '1M')?.wallMs), 3.3, 'x'),
    target('upload 3M peak RSS < 3072 MB (CLI)', up('3M')?.rssMB, 3072, 'MB'),
    target('upload 3M peak RSS < 3072 MB (sandbox)', up('3M')?.sandboxMB, 3072, 'MB'),
  ];
}

export function verdictText(targets) {
  return targets
    .map((t) => {
      const mark = t.met === null ? 'SKIP' : t.met ? 'MET ' : 'MISS';
      const unit = t.unit === 'x' ? '×' : ` ${t.unit}`;
      const value = t.measured === null ? t.note : `${t.measured}${unit} (limit ${t.limit}${unit})`;
      return `${mark}  ${t.name}: ${value}`;
    })
    .join('\n');
}

/**
 * Issue 44's second floor, with no goal this round: our parse stage alone and our whole dry run against
 * uDSV parsing the same file, beside csv-parse's, for each size measured; and the everyday file.
 */
export function udsvRatios(r) {
  const get = (label) => r.find((x) => x.label === label);
  const out = [];
  for (const size of ['100K', '1M', '3M']) {
    const u = get(`uDSV floor, team members ${size}`);
    if (!u) continue;
    const of = (row) => (row ? { wall: round(row.wallMs / u.wallMs), cpu: round(row.cpuMs / u.cpuMs) } : null);
    out.push({
      size,
      csvParse: of(get(`csv-parse floor, team members ${size}`)),
      parseStage: of(get(`our parse stage alone, team members ${size}`)),
      dryRun: of(get(`dry run, team members ${size}`)),
    });
  }
  return out;
}

const round = (x) => Math.round(x * 100) / 100;

export function udsvText(ratios) {
  if (!ratios.length) return 'uDSV: not measured in this run';
  const x = (v) => (v ? `${v.wall}× (cpu ${v.cpu}×)` : '—');
  return [
    'Against uDSV (no goal this round; issue 44):',
    ...ratios.map(
      (v) => `INFO  team members ${v.size}: our parse stage ${x(v.parseStage)}, our dry run ${x(v.dryRun)}, csv-parse ${x(v.csvParse)} uDSV's time`,
    ),
  ].join('\n');
}
