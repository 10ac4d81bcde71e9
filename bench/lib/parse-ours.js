// Our parse stage alone: the built reader (dist/read/index.js, openRecords) over the file, as a dry run
// reads it — bytes decoded once (strict UTF-8, with its evidence kept for a bad byte), the delimiter
// and header found, each record parsed into its cells and marked plain or not — and nothing after:
// no mapping, no validation, no bodies. Usage: node bench/lib/parse-ours.js FILE [DIST]  → prints the
// number of records. DIST is another build's dist/ (bench/ab.js variants), default this one's.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const file = process.argv[2];
const dist = resolve(process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist'));
const reader = join(dist, 'read', 'index.js');
if (!existsSync(reader)) throw new Error(`${reader} is missing: build first (npm run build)`);
const { openRecords } = await import(pathToFileURL(reader).href);

let records = 0;
for await (const batch of openRecords(file, { source: file }).batches) records += batch.length;
process.stdout.write(`${records}\n`);
