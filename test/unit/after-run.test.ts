// The post-run point: a command's afterRun sees the final report and exit code (as --detailed-exitcode
// and a failure settled them), and a failure in it is a warning that never changes the exit code.
import { describe, expect, it } from 'vitest';
import type { RunIo } from '../../src/cli/io.js';
import { finish } from '../../src/cli/main.js';
import type { Ended } from '../../src/cli/result.js';
import type { Diff } from '../../src/diff/index.js';
import { GuardRefusal } from '../../src/errors.js';
import { Secrets } from '../../src/send/secrets.js';

function io(): { io: RunIo; err: string[] } {
  const err: string[] = [];
  const secrets = new Secrets();
  secrets.keep('hook-secret-77');
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) }, env: {}, secrets } as unknown as RunIo;
  return { io, err };
}

const diff: Diff = {
  baseline: 'snapshot',
  added: 1,
  removed: 0,
  changed: 0,
  unchanged: 4,
  baselineCount: 4,
  status: new Uint8Array(5),
  examples: { added: [], removed: [], changed: [] },
};

describe('after the run', () => {
  it('is handed the final report and exit code', async () => {
    const seen: Ended[] = [];
    const facts = { kind: 'team-members', source: 'staff.csv', dryRun: true, records: 5, diff, done: 'dry-run' } as const;
    const code = await finish({ facts, detailedExitcode: true, afterRun: (ended) => Promise.resolve(void seen.push(ended)) }, io().io);
    expect(code).toBe(8);
    expect(seen).toEqual([{ exitCode: 8, report: expect.objectContaining({ outcome: 'dry-run', exitCode: 8, unchanged: false, records: 5 }) }]);
  });

  it('sees a failure as settled, and cannot change the exit code by failing itself', async () => {
    const { io: run, err } = io();
    const seen: Ended[] = [];
    const failure = new GuardRefusal('TOO_MANY_REMOVALS', 'too many', 'pass --max-removals');
    const code = await finish(
      {
        facts: { kind: 'team-members', source: 'staff.csv', dryRun: false },
        failure,
        afterRun: (ended) => {
          seen.push(ended);
          return Promise.reject(new Error('the hook broke with hook-secret-77'));
        },
      },
      run,
    );
    expect(code).toBe(4);
    expect(seen[0]).toMatchObject({ exitCode: 4, report: { outcome: 'refused', error: { code: 'TOO_MANY_REMOVALS' } } });
    expect(err.join('')).toContain('upload: warning: after the run: the hook broke with ***');
  });
});
