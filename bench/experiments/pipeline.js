// EXPERIMENT: the dry run's hot path (buildPlan's loop, without diff) with each proposed change
// switchable, to measure what each buys. Runs on the built dist/.
//   node bench/experiments/pipeline.js FILE KIND [--reader csv-parse|fast] [--validator zod|fast] [--no-retain]
// Prints {ms, cpuMs, rssMB}. Compare against bench/lib/floor-csv-parse.js run the same way.
import { createReadStream } from 'node:fs';
import { decodeText } from '../../dist/read/decode.js';
import { readRecords } from '../../dist/read/index.js';
import { compilePlan } from '../../dist/map/plan.js';
import { mapRecord } from '../../dist/map/record.js';
import { Validator } from '../../dist/validate/index.js';
import { SCHEMAS } from '../../dist/contract/schemas.js';
import { FastCsv } from './fast-csv.js';
import { fastSchema } from './fast-valid.js';

const [file, kind, ...flags] = process.argv.slice(2);
const flag = (name, dflt) => { const i = flags.indexOf(`--${name}`); return i === -1 ? dflt : flags[i + 1]; };
const reader = flag('reader', 'csv-parse');
const validatorKind = flag('validator', 'zod');
const retain = !flags.includes('--no-retain');

async function* fastRecords() {
  const parser = new FastCsv(',');
  let columns;
  const text = decodeText(createReadStream(file, { highWaterMark: 256 * 1024 }), undefined, file);
  const emit = function* (batch) {
    for (const r of batch) {
      if (!columns) { columns = r.cells.map((c) => c.trim()); continue; }
      yield { line: r.line, columns, cells: r.cells };
    }
  };
  for await (const chunk of text) yield* emit(parser.push(chunk));
  yield* emit(parser.push('', true));
}

const t0 = performance.now();
const c0 = process.cpuUsage();
const validator = new Validator(kind);
if (validatorKind === 'fast') validator.schema = fastSchema(kind, SCHEMAS[kind]);
const keys = [];
const bodies = [];
let plan;
let rows = 0;
const source = reader === 'fast' ? fastRecords() : readRecords(file, { source: file });
for await (const raw of source) {
  plan ??= compilePlan(kind, raw.columns, { mapping: {}, line: 1, perRecordColumns: false });
  rows++;
  const ok = validator.check(raw, plan, mapRecord(plan, raw));
  if (ok && retain) {
    keys.push(ok.key);
    bodies.push(ok.json);
  }
}
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ reader, validator: validatorKind, retain, rows, valid: bodies.length, errors: validator.errors, ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000), rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
