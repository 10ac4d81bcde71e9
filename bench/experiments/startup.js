// EXPERIMENT: start-up costs, interleaved, median of N: bare node, loading commander, `upload --help`.
import { spawnSync } from 'node:child_process';
const N = Number(process.argv[2] ?? 21);
const cases = {
  'node -e 0': ['-e', '0'],
  'import commander': ['--input-type=module', '-e', "import 'commander'"],
  'import child_process': ['--input-type=module', '-e', "import 'node:child_process'"],
  'upload --help': ['bin/upload.js', '--help'],
  'upload --version': ['bin/upload.js', '--version'],
};
const t = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < N; i++) for (const [k, args] of Object.entries(cases)) {
  const s = process.hrtime.bigint();
  spawnSync(process.execPath, args, { stdio: 'ignore' });
  t[k].push(Number(process.hrtime.bigint() - s) / 1e6);
}
const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const base = med(t['node -e 0']);
for (const [k, v] of Object.entries(t)) console.log(`${k.padEnd(22)} ${med(v).toFixed(1).padStart(7)} ms  ${(med(v) / base).toFixed(2)}×`);
