// The review page's data (--report-html): what a run planned and what it compared with. The engine
// fills it in (./review.ts); render/html/ turns it into rows and a page. Kept apart from review.ts,
// which reads the store, so the run's context can name it without importing the store's code.
import type { Kind } from '../contract/kinds.js';

/** What a run planned to send and what it compared with: the data the page renders beyond the report. */
export interface ReviewRecords {
  readonly kind: Kind;
  /** Key → canonical wire JSON of the baseline; undefined when there was none. */
  readonly baseline: ReadonlyMap<string, string> | undefined;
  /** Key and canonical wire JSON of each planned record, in file order. */
  readonly keys: readonly string[];
  readonly bodies: readonly string[];
}

/**
 * Filled in by a run when a review page was asked for (--report-html): the records it planned, the
 * baseline, and the body's sha256 (a plan's, for apply). Left empty where the run did not get that far.
 */
export interface Reviewed {
  records?: ReviewRecords;
  sha256?: string | null;
  plan?: string | null;
}
