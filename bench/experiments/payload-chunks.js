// EXPERIMENT: ways to turn 1M record JSON strings into the request body's byte chunks, interleaved
// so a busy machine weighs on each alike. Usage: node bench/experiments/payload-chunks.js BODY.json
import { readFileSync } from 'node:fs';
import { payloadChunks } from '../../dist/send/body.js';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8')).map((o) => JSON.stringify(o));
const CHUNK = 256 * 1024;

function* joined(bodies) {
  yield* payloadChunks(bodies);
}

function* written(bodies) {
  let buf = Buffer.allocUnsafe(CHUNK);
  buf[0] = 0x5b;
  let at = 1;
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i];
    if (at + 1 + body.length * 3 > CHUNK) {
      yield buf.subarray(0, at);
      buf = Buffer.allocUnsafe(Math.max(CHUNK, 1 + body.length * 3));
      at = 0;
    }
    if (i > 0) buf[at++] = 0x2c;
    at += buf.write(body, at);
  }
  if (at + 1 > buf.length) { yield buf.subarray(0, at); buf = Buffer.allocUnsafe(1); at = 0; }
  buf[at++] = 0x5d;
  yield buf.subarray(0, at);
}

const times = { joined: [], written: [] };
for (let round = 0; round < 5; round++) {
  for (const [name, fn] of [['joined', joined], ['written', written]]) {
    const t = performance.now();
    let n = 0;
    for (const c of fn(bodies)) n += c.length;
    times[name].push(performance.now() - t);
    if (round === 0) console.log(name, 'bytes', n);
  }
}
const a = Buffer.concat([...joined(bodies)]);
const b = Buffer.concat([...written(bodies)]);
console.log('identical bytes:', a.equals(b));
for (const [k, v] of Object.entries(times)) console.log(k, 'median ms', v.sort((x, y) => x - y)[2].toFixed(0));
