// The verdict a notification leads with: what the person on call must know before reading on. An
// upload that held removals back succeeded (exit 9) and is a warning, never a failure; an upload whose
// outcome was never learnt is neither a success nor a failure.
import type { Outcome } from '../errors.js';

export type Verdict = 'success' | 'held-removals' | 'refused' | 'failed' | 'unknown';

export const VERDICT_MARK: Readonly<Record<Verdict, string>> = {
  success: '✅',
  'held-removals': '⚠️',
  refused: '🛑',
  failed: '❌',
  unknown: '❓',
};

export function verdictOf(report: { readonly exitCode: number; readonly outcome: Outcome }): Verdict {
  if (report.exitCode === 0 || report.exitCode === 8) return 'success';
  if (report.exitCode === 9) return 'held-removals';
  if (report.outcome === 'refused') return 'refused';
  // The service may or may not hold the new set: sent without an answer, or answered unlike itself.
  if (report.outcome === 'unknown' || report.outcome === 'unverified') return 'unknown';
  return 'failed';
}
