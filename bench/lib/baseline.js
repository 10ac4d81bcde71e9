// A state store whose latest upload of team members holds exactly the records of `file`: the repeat
// upload, the case every run after the first is. Used by run.js (the baseline row) and ab.js --baseline.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './measure.js';

/** The address the recorded upload is filed under; nothing listens there (a dry run never connects). */
export const BASELINE_URL = 'http://127.0.0.1:9';

/** Records `file`'s own body (made by `bin`, a dry run with --payload-out) as upload #1 in `state`; its record count. */
export async function recordBaseline(bin, file, state, scratch) {
  const body = join(scratch, 'baseline-body.json');
  const made = await run(process.execPath, [bin, 'team-members', file, '--dry-run', '--json', '--payload-out', body, '--state', state]);
  if (made.code !== 0) throw new Error(`payload of ${file}: exit ${made.code}: ${made.stderr.slice(-300)}`);
  const { records } = JSON.parse(made.stdout);
  const { openStore } = await import('../../dist/state/index.js');
  const bytes = readFileSync(body);
  const store = await openStore(state, { env: {} });
  const key = { baseUrl: BASELINE_URL, kind: 'team-members' };
  const lease = await store.lock(key, { user: 'bench', host: 'bench', pid: process.pid, what: 'bench' });
  try {
    await store.commit(
      key,
      0,
      [bytes],
      {
        uploadedAt: new Date().toISOString(),
        user: 'bench',
        host: 'bench',
        toolVersion: 'bench',
        source: file,
        records,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        restoredFrom: null,
        plan: null,
      },
      10,
    );
  } finally {
    await lease.release();
    await store.close();
  }
  return records;
}
