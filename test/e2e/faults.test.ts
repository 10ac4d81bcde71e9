// The fault suite: every row of the delivery outcome table (docs/delivery.md), driven through the CLI
// against one scripted server. Each asserts the exit code and outcome, that every attempt sent the
// same bytes, and that the lock is released however the run ended.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { upload } from '../helpers/canary.js';
import { serversForFile, type Step } from '../helpers/scripted-server.js';
import { lockOf } from '../helpers/state.js';

const { serve, deadUrl } = serversForFile();

interface Row {
  readonly name: string;
  readonly steps: readonly Step[] | 'dead';
  readonly args?: readonly string[];
  readonly exit: number;
  readonly outcome: string;
  readonly code?: string;
  readonly attempts: number;
}

const ROWS: readonly Row[] = [
  { name: 'the service confirms', steps: [{ ok: true }], exit: 0, outcome: 'uploaded', attempts: 1 },
  { name: '503, 503, then confirmed', steps: [{ status: 503 }, { status: 503 }, { ok: true }], exit: 0, outcome: 'uploaded', attempts: 3 },
  {
    name: '429 with Retry-After, then confirmed',
    steps: [{ status: 429, headers: { 'retry-after': '0' } }, { ok: true }],
    exit: 0,
    outcome: 'uploaded',
    attempts: 2,
  },
  { name: 'a reset connection, then confirmed', steps: [{ reset: true }, { ok: true }], exit: 0, outcome: 'uploaded', attempts: 2 },
  {
    name: '400 with a message',
    steps: [{ status: 400, body: { message: 'bad records', status: 400 } }],
    exit: 5,
    outcome: 'rejected',
    code: 'REJECTED',
    attempts: 1,
  },
  { name: '401', steps: [{ status: 401 }], exit: 5, outcome: 'rejected', code: 'UNAUTHORIZED', attempts: 1 },
  {
    name: 'a redirect',
    steps: [{ status: 307, headers: { location: 'https://elsewhere.example/' } }],
    exit: 5,
    outcome: 'rejected',
    code: 'REDIRECT',
    attempts: 1,
  },
  { name: 'nothing listening', steps: 'dead', args: ['--retries', '1'], exit: 6, outcome: 'unreachable', code: 'UNREACHABLE', attempts: 0 },
  { name: '503 on every attempt', steps: [{ status: 503 }], args: ['--retries', '2'], exit: 6, outcome: 'unreachable', code: 'UNREACHABLE', attempts: 3 },
  {
    name: '500 then 408 then 500',
    steps: [{ status: 500 }, { status: 408 }, { status: 500 }],
    args: ['--retries', '2'],
    exit: 6,
    outcome: 'unreachable',
    attempts: 3,
  },
  {
    name: 'no answer within --timeout',
    steps: [{ hang: true }],
    args: ['--timeout', '1', '--retries', '1'],
    exit: 6,
    outcome: 'unknown',
    code: 'OUTCOME_UNKNOWN',
    attempts: 2,
  },
  {
    name: 'a gateway 502 on every attempt',
    steps: [{ status: 502 }],
    args: ['--retries', '1'],
    exit: 6,
    outcome: 'unknown',
    code: 'OUTCOME_UNKNOWN',
    attempts: 2,
  },
  { name: 'a 504, then a 400', steps: [{ status: 504 }, { status: 400 }], exit: 5, outcome: 'rejected', code: 'REJECTED', attempts: 2 },
  {
    name: 'a 200 that drips forever',
    steps: [{ drip: 200 }],
    args: ['--timeout', '1', '--retries', '0'],
    exit: 6,
    outcome: 'unknown',
    code: 'OUTCOME_UNKNOWN',
    attempts: 1,
  },
  {
    name: 'a 200 whose body never ends',
    steps: [{ endless: true }],
    args: ['--retries', '0'],
    exit: 7,
    outcome: 'unverified',
    code: 'ANSWER_UNCONFIRMED',
    attempts: 1,
  },
  {
    name: 'a 200 that is not {message, status}',
    steps: [{ status: 200, body: 'OK' }],
    exit: 7,
    outcome: 'unverified',
    code: 'ANSWER_UNCONFIRMED',
    attempts: 1,
  },
  {
    name: 'a 200 whose body says 500',
    steps: [{ status: 200, body: { message: '3 team member(s) uploaded', status: 500 } }],
    exit: 7,
    outcome: 'unverified',
    code: 'ANSWER_UNCONFIRMED',
    attempts: 1,
  },
  {
    name: 'a 200 that counts other records',
    steps: [{ status: 200, body: { message: '2 team member(s) uploaded', status: 200 } }],
    exit: 7,
    outcome: 'unverified',
    code: 'ANSWER_UNCONFIRMED',
    attempts: 1,
  },
];

describe.concurrent('every row of the outcome table', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const server = row.steps === 'dead' ? undefined : await serve(...row.steps);
    const url = server?.url ?? (await deadUrl());
    const run = await upload(url, row.args ?? []);
    expect(run.code, run.stderr).toBe(row.exit);
    const report = run.json();
    expect(report.outcome).toBe(row.outcome);
    if (row.code) expect(report.error.code).toBe(row.code);
    if (server) {
      expect(server.requests).toHaveLength(row.attempts);
      // A full replacement is safe to repeat only if it is the same replacement: the same bytes each time.
      expect(new Set(server.requests.map((r) => r.sha256)).size).toBeLessThanOrEqual(1);
    }
    expect(existsSync(lockOf(run.stateDir, url))).toBe(false);
  });
});
