// What a command is to the frame (./frame.ts): where its records go, what it compares with, where its
// planned set comes from, how it is judged and which files it writes. upload, restore and apply are
// values of this type; so are the commands built on them later (export, merge, remove).
import type { Payload } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import type { ChangeTally } from '../diff/fields.js';
import type { Diff } from '../diff/index.js';
import type { UploadError } from '../errors.js';
import type { RecordSet } from '../sets/index.js';
import type { ApprovalStory, Generation } from '../state/types.js';
import type { FourEyes } from './approval.js';
import type { BaselineResult } from './baseline.js';
import type { RunContext } from './context.js';
import type { Identity, Limits, SendOptions, StateOptions } from './options.js';
import type { Plan } from './plan.js';
import type { RunFacts } from '../report/result.js';
import type { State } from './state.js';

/** Where the records go; `Found` is what locating them read that the later steps work from (a saved plan). */
export interface Target<Found = undefined> {
  readonly kind: Kind;
  /** Undefined only on a dry run with no address: then there is no store to compare with. */
  readonly baseUrl: URL | undefined;
  /** What is known once the target is (a saved plan says its kind and size). */
  readonly facts?: Partial<RunFacts>;
  readonly found?: Found;
  /** The guards' settings when only the target knows them (a saved plan's); else the definition's. */
  readonly guards?: GuardSettings;
}

/** The target with its state store opened and the store's latest generation read once, without the lock. */
export interface Opened<Found = undefined> {
  readonly target: Target<Found>;
  readonly state: State | undefined;
  readonly head: Generation | undefined;
}

/** What a planned upload is, with what only that kind of upload has. */
export type PlannedAs =
  | { readonly operation: 'upload' }
  | { readonly operation: 'merge' }
  | { readonly operation: 'remove' }
  /** An earlier generation sent again: the new one says which. */
  | { readonly operation: 'restore'; readonly restoredFrom: number }
  /** The removals an upload held back (`upload release`): which upload, and exactly those keys. */
  | { readonly operation: 'release'; readonly release: { readonly generation: number; readonly keys: readonly string[] } }
  /**
   * A saved plan: its path, and what its guards said when it was made (shown when there is nothing to
   * judge it against again); a plan of a release is recorded as the release it is.
   */
  | {
      readonly operation: 'apply';
      readonly savedPlan: string;
      readonly notes: readonly string[];
      readonly release?: { readonly generation: number; readonly keys: readonly string[] } | undefined;
    };

/** The set a run would send, and what it changes. */
export interface Planned {
  readonly source: string;
  /** Records read from the file (valid or not), or in the set. */
  readonly records: number;
  /** Records that would be sent. */
  readonly count: number;
  readonly diff: Diff;
  /** What the changed records change, field by field (src/diff/changed.ts), for the change guards; undefined without a baseline. */
  readonly changes: () => ChangeTally | undefined;
  /** The body, encoded once when first asked for (a dry run may never need it). */
  readonly payload: () => Promise<Payload>;
  /** The plan of a file, when the set was read from one: the preview and the files asked for need it. */
  readonly file?: Plan;
  /** Why the set must not be judged or sent (invalid records); the files asked for are still written. */
  readonly invalid?: UploadError;
  /** What the upload is: the history records it, and the frame never infers it from the other fields. */
  readonly what: PlannedAs;
  /** The set that would be sent, when it is not the file's records alone (a merge, a removal, held removals). */
  readonly set?: RecordSet;
  /** Recorded keys the set keeps although the file leaves them out (--hold-removals; set by the judge step). */
  readonly held?: readonly string[];
  /** The guards' settings when only the planned set knows them (a release: its removal limit is the keys found held). */
  readonly guards?: GuardSettings;
  /** Four eyes (apply): who planned and approved it, and the checks to make again under the lock. */
  readonly approval?: { readonly story: ApprovalStory; readonly rule: FourEyes; recheck(): Promise<void> };
}

/** The guards' settings (a saved plan's are those it was made with). */
export interface GuardSettings {
  readonly limits: Limits;
  /** --no-baseline */
  readonly acknowledgeNoBaseline: boolean;
  /** --hold-removals: when the removal guard would refuse, send the omitted records as recorded instead. */
  readonly holdRemovals?: boolean;
}

/** The guards of a command on the recorded set (restore, remove): it always has a baseline. */
export function recordedSetGuards(limits: Limits): GuardSettings {
  return { limits, acknowledgeNoBaseline: false };
}

export interface Definition<Found = undefined> {
  /** What the report says before anything else is known. */
  readonly facts: RunFacts;
  readonly dryRun: boolean;
  /** The state store: a directory path or a postgres:// URL. */
  readonly state: string;
  readonly send: SendOptions;
  readonly keep: number;
  readonly identity: Identity;
  readonly guards: GuardSettings | undefined;
  readonly outputs?: OutputRequests;
  /** The refusal when the store moved under the lock (a saved plan says PLAN_STALE). */
  readonly staleCode?: 'STATE_MOVED' | 'PLAN_STALE';
  /** The target needs approvals (four eyes): a saved plan is recorded in the store as it is made. */
  readonly fourEyes?: FourEyes | undefined;
  /**
   * What a command does instead of sending, once the plan is judged and let through (approve records an
   * approval): it asks, acts, and returns what the report adds. Undefined for the commands that send.
   */
  act?(opened: Opened<Found>, planned: Planned, against: BaselineResult, ctx: RunContext): Promise<Partial<RunFacts>>;
  locate(ctx: RunContext): Promise<Target<Found>>;
  baseline(opened: Opened<Found>, ctx: RunContext): Promise<BaselineResult>;
  plan(opened: Opened<Found>, against: BaselineResult, ctx: RunContext): Promise<Planned>;
}

/** The files a run writes on request (./outputs.ts). */
export interface OutputRequests {
  readonly errorsCsv?: string | undefined;
  readonly payloadOut?: string | undefined;
  readonly diffOut?: string | undefined;
  /** Dry runs only. */
  readonly planOut?: string | undefined;
  /** The config's named target the run is pointed at: a saved plan records it (apply refuses another). */
  readonly target?: string | null | undefined;
}

/**
 * What every command that may send says alike: the report's first facts, whether it stops before
 * sending, the store, and how to send. The rest of a Definition is what makes the command itself.
 */
export function commandBasics(
  options: SendOptions & StateOptions,
  facts: RunFacts,
): Pick<Definition, 'facts' | 'dryRun' | 'state' | 'send' | 'keep' | 'identity' | 'fourEyes'> {
  return { facts, dryRun: facts.dryRun, state: options.state, send: options, keep: options.keep, identity: options.identity, fourEyes: options.fourEyes };
}
