// The second floor: the same file parsed by uDSV (the fastest JavaScript CSV parser we know of) into
// arrays of strings, streaming, nothing else. Mirrors floor-csv-parse.js: the file read in Node's
// default chunks, every record made an array of strings and handed to a callback that drops it
// (not kept: csv-parse's floor keeps none either). The text is decoded once, by a streaming
// TextDecoder, as our reader does (uDSV's own example's chunk.toString() would split a character cut
// between two reads). Usage: node bench/lib/floor-udsv.js FILE  → prints the number of records.
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { inferSchema, initParser } from 'udsv';

let records = 0;
let parser = null;
const decoder = new TextDecoder('utf-8', { fatal: true });
const count = () => records++;
createReadStream(process.argv[2])
  .on('data', (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    // The schema (delimiter, quoting, header) is inferred from the first chunk, as uDSV's examples do.
    parser ??= initParser(inferSchema(text));
    parser.chunk(text, parser.stringArrs, count);
  })
  .on('end', () => {
    const rest = decoder.decode();
    if (rest) parser.chunk(rest, parser.stringArrs, count);
    parser.end();
    process.stdout.write(`${records}\n`);
  })
  .on('error', (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
