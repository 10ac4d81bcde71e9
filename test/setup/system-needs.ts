// The system project's global setup: before a test starts, every program it needs is there, or the
// run fails at once naming each missing one and how to get it. Never a skipped test or a file left out.
import { SYSTEM_NEEDS } from './system-tests.js';

export default function setup(): void {
  const missing = SYSTEM_NEEDS.filter((n) => !n.present());
  if (missing.length === 0) return;
  console.error(
    [
      '',
      `npm run test:system needs what this machine lacks (.ci/run installs it):`,
      ...missing.map((n) => `  ${n.what}: ${n.get} — for ${n.files.join(', ')}`),
      '',
    ].join('\n'),
  );
  // Not a thrown error: vitest 4 reports a global setup's error as "No test files found" and a
  // TypeError of its own, hiding the message. Nothing has started yet; the watchdog removes the folder.
  process.exit(1);
}
