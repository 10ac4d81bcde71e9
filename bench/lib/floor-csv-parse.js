// The library floor: the same file parsed by bare csv-parse into arrays, streaming, nothing else.
// Usage: node bench/lib/floor-csv-parse.js FILE  → prints the number of records.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

let records = 0;
createReadStream(process.argv[2])
  .pipe(parse({ delimiter: ',' }))
  .on('data', () => records++)
  .on('end', () => process.stdout.write(`${records}\n`))
  .on('error', (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
