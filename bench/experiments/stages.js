// EXPERIMENT (not part of the tool): times each stage of the dry run in one process, cumulatively,
// on the built dist/, to see where the time goes. Usage: node bench/experiments/stages.js FILE KIND STAGE
// STAGE: bytes | decode | parse-buffers | parse-strings-foreach | read | map | validate | plan
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { decodeText } from '../../dist/read/decode.js';
import { readRecords } from '../../dist/read/index.js';
import { compilePlan } from '../../dist/map/plan.js';
import { mapRecord } from '../../dist/map/record.js';
import { Validator } from '../../dist/validate/index.js';
import { buildPlan } from '../../dist/plan.js';

const [file, kind, stage] = process.argv.slice(2);
const bytes = () => createReadStream(file, { highWaterMark: 256 * 1024 });
const started = performance.now();
const cpu0 = process.cpuUsage();
let n = 0;

if (stage === 'bytes') for await (const c of bytes()) n += c.length;
else if (stage === 'decode') for await (const t of decodeText(bytes(), undefined, file)) n += t.length;
else if (stage === 'parse-buffers' || stage === 'parse-strings') {
  const parser = parse({ delimiter: ',', record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, max_record_size: 1 << 20, skip_empty_lines: false });
  const src = stage === 'parse-buffers' ? bytes() : decodeText(bytes(), undefined, file);
  const feed = (async () => {
    for await (const c of src) if (!parser.write(c)) await new Promise((r) => parser.once('drain', r));
    parser.end();
  })();
  for await (const rec of parser) n++;
  await feed;
} else if (stage === 'read' || stage === 'map' || stage === 'validate') {
  const validator = new Validator(kind);
  let plan;
  for await (const raw of readRecords(file, { source: file })) {
    n++;
    if (stage === 'read') continue;
    plan ??= compilePlan(kind, raw.columns, { mapping: {}, line: 1, perRecordColumns: false });
    const mapped = mapRecord(plan, raw);
    if (stage === 'validate') validator.check(raw, plan, mapped);
  }
} else if (stage === 'plan') {
  const plan = await buildPlan({ kind, path: file, read: { source: file }, mapping: {} });
  n = plan.rows;
} else throw new Error(`unknown stage ${stage}`);

const ms = performance.now() - started;
const c = process.cpuUsage(cpu0);
console.log(JSON.stringify({ stage, n, ms: Math.round(ms), cpuMs: Math.round((c.user + c.system) / 1000), rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
