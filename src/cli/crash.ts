// An unexpected error: a short message (a stack only with UPLOAD_DEBUG=1), and under --json the one
// report all the same.
import { EXIT } from '../errors.js';
import type { ProcessIo } from './main.js';
import { redact } from '../send/secrets.js';
import { usageReport } from './upload.js';

export function reportCrash(err: unknown, argv: readonly string[], io: ProcessIo): number {
  // Redacted like every other output: a crash must not be the way the token gets out.
  const message = redact(err instanceof Error ? err.message : String(err));
  io.stderr.write(`upload: internal error: ${message}\n`);
  if (io.env.UPLOAD_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${redact(err.stack)}\n`);
  else io.stderr.write('This is a bug. Run again with UPLOAD_DEBUG=1 for details, and report it.\n');
  if (argv.includes('--json')) {
    const report = usageReport(argv, 'INTERNAL_ERROR', message);
    report.outcome = 'internal-error';
    report.exitCode = EXIT.internal;
    io.stdout.write(`${redact(JSON.stringify(report))}\n`);
  }
  return EXIT.internal;
}
