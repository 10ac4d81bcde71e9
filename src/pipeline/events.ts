// What the engine tells the outside world while it runs: data, not text. The CLI renders these for a
// person (render/render.ts); under --json they are rendered quietly and the report says the rest.
import type { Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { GuardCheck } from '../guard/checks.js';
import type { Issue } from '../issues.js';
import type { FieldSource } from '../map/describe.js';
import type { SendEvent } from '../send/index.js';
import type { BaselineReport } from '../report/report.js';

export type RunEvent =
  | { readonly type: 'lock-recovered'; readonly owner: { readonly user: string; readonly host: string; readonly pid: number; readonly since: string } }
  | { readonly type: 'notice'; readonly message: string }
  /** restore: the earlier upload that is the planned set. */
  | { readonly type: 'restoring'; readonly kind: Kind; readonly upload: BaselineReport }
  /** apply: the saved plan about to be judged and sent. */
  | {
      readonly type: 'applying';
      readonly plan: string;
      readonly records: number;
      readonly source: string;
      readonly user: string;
      readonly host: string;
      readonly createdAt: string;
      /** Under four eyes: the planner as the state store recorded them (the plan file's user is only what its machine said). */
      readonly planner?: string;
    }
  /** A dry run's plan, saved for `upload apply`. */
  | { readonly type: 'plan-saved'; readonly path: string; /** The next step, as a command a person runs as written. */ readonly next?: string }
  | { readonly type: 'reading'; readonly source: string; readonly records: number | null }
  | { readonly type: 'read'; readonly source: string }
  | { readonly type: 'warning'; readonly message: string }
  | {
      readonly type: 'planned';
      readonly source: string;
      readonly issues: readonly Issue[];
      /** More issues were found than `issues` holds (errors and warnings count them all). */
      readonly truncated: boolean;
      readonly rows: number;
      readonly valid: number;
      readonly errors: number;
      readonly warnings: number;
    }
  | { readonly type: 'preview'; readonly mapping: readonly FieldSource[]; readonly first: readonly string[]; readonly total: number }
  | { readonly type: 'diff'; readonly kind: Kind; readonly diff: Diff; readonly against: BaselineReport; readonly noBaselineWhy: string | undefined }
  | { readonly type: 'recorded'; readonly generation: number; readonly store: string }
  | { readonly type: 'guard-notes'; readonly notes: readonly string[] }
  | { readonly type: 'guards'; readonly kind: Kind; readonly guards: readonly GuardCheck[] }
  /** --hold-removals: the removal guard would have refused; these recorded keys are sent as they are. */
  | { readonly type: 'held'; readonly kind: Kind; readonly held: readonly string[]; readonly release: readonly string[] }
  /** A saved plan holds removals back (it was made with --hold-removals); `release` is the command that removes exactly them. */
  | { readonly type: 'plan-held'; readonly kind: Kind; readonly held: readonly string[]; readonly release: readonly string[] }
  | { readonly type: 'dry-run'; readonly kind: Kind; readonly count: number; readonly needs: readonly string[] }
  | { readonly type: 'sending'; readonly kind: Kind; readonly count: number; readonly origin: string }
  | { readonly type: 'send'; readonly event: SendEvent; readonly origin: string }
  | { readonly type: 'sent' }
  | { readonly type: 'uploaded'; readonly message: string }
  /** A release was sent and recorded: exactly these held keys are gone from the service. */
  | { readonly type: 'released'; readonly kind: Kind; readonly generation: number; readonly keys: readonly string[] };

/** The question a real run asks before it sends. */
export interface ConfirmRequest {
  readonly kind: Kind;
  readonly count: number;
  /** The normalised base URL. */
  readonly where: string;
  readonly diff: Diff;
  readonly against: BaselineReport;
  /** What the answer does: send the upload (the default), or record an approval of a plan. */
  readonly action?: 'upload' | 'approve';
}
