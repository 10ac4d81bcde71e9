// Realistic input files for the benchmark, generated once into bench/out/ and reused while they
// exist. Deterministic (a seeded PRNG), so every run measures the same bytes.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Bump when the generated content changes, so cached files are not reused by mistake. */
const VERSION = 1;
const STORES = 100_000;

function prng(seed) {
  // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// First and last names as an HR export holds them: mostly ASCII, some not; [written, for the email].
const FIRST = [
  ['Jane', 'jane'],
  ['John', 'john'],
  ['Maria', 'maria'],
  ['Ahmed', 'ahmed'],
  ['Wei', 'wei'],
  ['Olga', 'olga'],
  ['Björn', 'björn'],
  ['Zoë', 'zoe'],
  ['José', 'josé'],
  ['François', 'francois'],
  ['Łukasz', 'lukasz'],
  ['Søren', 'søren'],
  ['Anna Maria', 'annamaria'],
  ['Mary-Kate', 'mary-kate'],
  ['Siobhán', 'siobhan'],
  ['Kenji', 'kenji'],
];
const LAST = [
  ['Doe', 'doe'],
  ['Smith', 'smith'],
  ['Garcia', 'garcia'],
  ['Müller', 'müller'],
  ['Østberg', 'ostberg'],
  ['Nguyễn', 'nguyen'],
  ["O'Brien", 'obrien'],
  ['van der Berg', 'vanderberg'],
  ['Kowalski', 'kowalski'],
  ['Ek', 'ek'],
  ['Johansson', 'johansson'],
  ['Dubois', 'dubois'],
  ['Şahin', 'sahin'],
  ['Rossi', 'rossi'],
];
const ROLES = ['1', '2', '3', '4', '7', '12', 'MGR', 'CASH', 'STOCK', ''];
const DOMAINS = ['example.com', 'example.org', 'corp.example.net', 'exämple.se'];

const pad = (n, w) => String(n).padStart(w, '0');
const storeKey = (n) => `STORE-${pad(n, 6)}`;
/** RFC 4180 quoting, only where needed. */
const cell = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function teamMemberRow(i, rnd) {
  const [first, f] = FIRST[Math.floor(rnd() * FIRST.length)];
  const [last, l] = LAST[Math.floor(rnd() * LAST.length)];
  // One in eight names is exported "Last, First": a comma inside a quoted field.
  const name = rnd() < 0.125 ? `${last}, ${first}` : `${first} ${last}`;
  const email = `${f}.${l.replace(/[' ]/g, '')}.${i}@${DOMAINS[Math.floor(rnd() * DOMAINS.length)]}`;
  const role = ROLES[Math.floor(rnd() * ROLES.length)];
  const parent = rnd() < 0.05 ? '' : storeKey(1 + Math.floor(rnd() * STORES));
  return `E${pad(i, 8)},${cell(name)},${email},${role},${parent}`;
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** A day's hours as [since, to] text, or null when closed. */
function dayHours(day, rnd) {
  const r = rnd();
  if (day === 0 && r < 0.4) return null;
  if (r < 0.05) return null;
  if (r < 0.15) return ['18:00', '02:00']; // past midnight
  if (r < 0.3) return ['9:30', '21:30'];
  if (r < 0.4) return ['10 AM', '6 PM'];
  return [String(6 + Math.floor(rnd() * 4)), String(18 + Math.floor(rnd() * 6))];
}

function storeCardRow(i, rnd, layout) {
  const concept = rnd() < 0.2 ? '' : String(1 + Math.floor(rnd() * 40));
  const cells = [storeKey(i), `store-${pad(i, 6)}@${DOMAINS[i % DOMAINS.length]}`, concept];
  for (let d = 0; d < 7; d++) {
    const h = dayHours(d, rnd);
    if (layout === 'pair') cells.push(h ? h[0] : '', h ? h[1] : '');
    else cells.push(h ? cell(`${h[0]}${rnd() < 0.2 ? ' – ' : '-'}${h[1]}`) : rnd() < 0.5 ? 'closed' : '');
  }
  return cells.join(',');
}

const HEADERS = {
  'team-members': 'Employee ID,Full Name,E-mail,Role Code,Store Key',
  'store-cards-pair': ['nodeKey', 'email', 'storeConceptCode', ...DAYS.flatMap((d) => [`${d}_since`, `${d}_to`])].join(','),
  'store-cards-range': ['Store ID', 'Store Email', 'Concept', ...DAYS.map((d) => d[0].toUpperCase() + d.slice(1))].join(','),
};

function write(path, header, rows, rowAt) {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  const rnd = prng(42);
  writeSync(fd, `${header}\n`);
  const BATCH = 20_000;
  for (let from = 1; from <= rows; from += BATCH) {
    const lines = [];
    for (let i = from; i < from + BATCH && i <= rows; i++) lines.push(rowAt(i, rnd));
    writeSync(fd, `${lines.join('\n')}\n`);
  }
  closeSync(fd);
  renameSync(temp, path);
}

/** The path of a generated file, generating it first when it is not there yet. */
export function generated(outDir, kind, rows, label) {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `${kind}-${label}.v${VERSION}.csv`);
  if (existsSync(path)) return { path, fresh: false };
  const rowAt =
    kind === 'team-members'
      ? teamMemberRow
      : kind === 'store-cards-pair'
        ? (i, rnd) => storeCardRow(i, rnd, 'pair')
        : (i, rnd) => storeCardRow(i, rnd, 'range');
  write(path, HEADERS[kind], rows, rowAt);
  return { path, fresh: true };
}

/**
 * The same records as a workbook, as HR exports them from their system (issue 44's everyday file): the
 * generated CSV's cells as the text cells of one sheet, written by SheetJS (@e965/xlsx, the library the
 * tool reads workbooks with), compressed as Excel saves. Generated once beside the CSV and reused.
 */
export async function generatedWorkbook(outDir, kind, rows, label) {
  const csv = generated(outDir, kind, rows, label).path;
  const path = csv.replace(/\.csv$/, '.xlsx');
  if (existsSync(path)) return { path, fresh: false };
  const [XLSX, { parse }] = await Promise.all([import('@e965/xlsx'), import('csv-parse/sync')]);
  const table = parse(readFileSync(csv, 'utf8'), { relax_column_count: true });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table), 'Staff');
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }));
  renameSync(temp, path);
  return { path, fresh: true };
}
