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

/** One target: measured/limit, met or not; skipped when a side was not measured. */
function target(name, measured, limit, unit, bound) {
  if (measured == null || limit == null) return { name, measured: null, limit, met: null, note: 'not measured in this run' };
  const ratio = unit === 'x' ? measured : undefined;
  return { name, measured: Math.round(measured * 100) / 100, limit: bound ?? limit, unit, met: measured <= (bound ?? limit), ratio };
}

const ratio = (a, b) => (a != null && b ? a / b : null);

export function verdict(r) {
  const get = (label) => r.find((x) => x.label === label);
  const tm = (what, size) => get(`${what}, team members ${size}`);
  const up = (size) => get(`upload ${size} team members (CLI)`);
  return [
    target('dry run 1M ≤ 1.25× csv-parse floor (wall)', ratio(tm('dry run', '1M')?.wallMs, tm('csv-parse floor', '1M')?.wallMs), 1.25, 'x'),
    target('  same, by CPU time (less sensitive to a busy machine)', ratio(tm('dry run', '1M')?.cpuMs, tm('csv-parse floor', '1M')?.cpuMs), 1.25, 'x'),
    target('dry run 1M peak RSS < 1024 MB', tm('dry run', '1M')?.rssMB, 1024, 'MB'),
    target('dry run 3M peak RSS < 3072 MB', tm('dry run', '3M')?.rssMB, 3072, 'MB'),
    target('dry run 3M ≤ 3.3× dry run 1M (wall)', ratio(tm('dry run', '3M')?.wallMs, tm('dry run', '1M')?.wallMs), 3.3, 'x'),
    target('  same, by CPU time', ratio(tm('dry run', '3M')?.cpuMs, tm('dry run', '1M')?.cpuMs), 3.3, 'x'),
    target('upload 3M peak RSS < 3072 MB (CLI)', up('3M')?.rssMB, 3072, 'MB'),
    target('upload 3M peak RSS < 3072 MB (sandbox)', up('3M')?.sandboxMB, 3072, 'MB'),
    target('upload 3M ≤ 3.3× upload 1M (wall)', ratio(up('3M')?.wallMs, up('1M')?.wallMs), 3.3, 'x'),
    target('  same, by CPU time (CLI)', ratio(up('3M')?.cpuMs, up('1M')?.cpuMs), 3.3, 'x'),
    target('upload --help ≤ 1.5× node -e 0 (median wall)', ratio(get('upload --help')?.wallMs, get('node -e 0')?.wallMs), 1.5, 'x'),
  ];
}

export function verdictText(targets) {
  return targets
    .map((t) => {
      const mark = t.met === null ? 'SKIP' : t.met ? 'MET ' : 'MISS';
      const value = t.measured === null ? t.note : `${t.measured}${t.unit === 'x' ? '×' : ' MB'} (limit ${t.limit}${t.unit === 'x' ? '×' : ' MB'})`;
      return `${mark}  ${t.name}: ${value}`;
    })
    .join('\n');
}
