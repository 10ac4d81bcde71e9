// EXPERIMENT: the sandbox's body parsing alone (dist/sandbox/body.js parseBody), fed from a file as
// if it were the request, with a CPU profile-friendly shape. Usage: node bench/experiments/sandbox-body.js BODY.json
import { createReadStream } from 'node:fs';
import { parseBody } from '../../dist/sandbox/body.js';

const t0 = performance.now();
const c0 = process.cpuUsage();
const result = await parseBody(createReadStream(process.argv[2], { highWaterMark: 64 * 1024 }), 'team-members', Infinity);
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ ok: result.ok, n: result.records?.length, ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), heapMB: Math.round(process.memoryUsage().heapUsed / 1048576) }));
