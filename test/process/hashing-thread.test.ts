// The thread that hashes an upload's body as it is made (Bodies.hashAsItGoes) holds nothing up: a plan
// refused by a guard, whose body is never sent, ends its process as if there were no thread. Run in a
// process of its own, on the built module: the question is whether that process ends.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('a body hashed as it is made but never sent (a plan refused) does not keep the process alive', () => {
  const dist = new URL('../../dist/contract/json-array.js', import.meta.url).href;
  // The thread is seen to start and not to fail (a failed one would end the process for a wrong
  // reason) in the half second the script waits; then nothing may be left to hold the process.
  const script = `import { Bodies } from '${dist}';
process.on('worker', (thread) => {
  process.stdout.write(' started');
  thread.on('error', (err) => process.stdout.write(' failed: ' + err.message));
});
const bodies = new Bodies();
bodies.hashAsItGoes({ fromBytes: 0 });
for (let i = 0; i < 20000; i++) bodies.push(JSON.stringify({ employeeID: 'E' + i, name: 'Zoë ' + i }));
process.stdout.write('made');
setTimeout(() => process.stdout.write(' waited'), 500);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect([r.status, r.signal, r.stdout]).toEqual([0, null, 'made started waited']);
});
