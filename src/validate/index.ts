// The validate stage: each mapped record against the zod contract, plus what the contract cannot see
// alone — unique keys, spreadsheet damage, unknown parents. Issues are collected, never thrown.
import type { Kind } from '../contract/kinds.js';
import { KINDS } from '../contract/kinds.js';
import { FIELDS } from '../contract/fields.js';
import { ACCEPTS } from '../contract/fast.js';
import { Bodies } from '../contract/json-array.js';
import type { SCHEMAS } from '../contract/schemas.js';
import { asText, issue, type Issue } from '../issues.js';
import type { ColumnPlan } from '../map/column-plan.js';
import { dayValue, type Mapped } from '../map/record.js';
import type { RawRecord } from '../read/types.js';
import { doubled, foldHash, foldKey, KeyList, runOf } from './key-index.js';
import { describe } from './messages.js';
import { BEYOND_TABLE, COMPATIBLE, IDENTIFYING, invisibleCharacter, lookalikeCharacter, NEEDS_SKELETON, plainClasses, SHOWN_AS_IS, toNfc } from './text.js';
import { lookalikeIssue, Lookalikes, mixedScriptIssue } from './lookalike-index.js';
import { needsSkeleton } from './lookalike.js';
import { emailList, listIssue, ListsInCells, parentKeysIn, partsOf, SEPARATOR } from './lists.js';

/**
 * Identifiers Excel turned into numbers: 1.23E+05 cannot be turned back into the real ID. Excel
 * always writes the exponent's sign, so a genuine key such as "12E3" is not taken for one.
 */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]\d+$/i;
const IDENTIFIERS = new Set(['employeeID', 'nodeKey', 'parentKey']);

/** fedFlags(): the field is in SHOWN_AS_IS, in IDENTIFYING, in IDENTIFIERS. */
const SHOWN = 1;
const IDENTIFIES = 2;
const IDENTIFIER = 4;
/** A cell a spreadsheet may execute as a formula when the file is opened again: =, +, @ or tab first. */
function formulaLike(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 61 || c === 43 || c === 64 || c === 9;
}

/** Only a sign or a digit can start what SCIENTIFIC matches; most identifiers are out at once. */
function mayBeNumber(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 43 || c === 45 || (c >= 48 && c <= 57);
}

export interface ValidatorOptions {
  /** Store-card keys a team member's parentKey should match (from the baseline or --store-cards). */
  readonly knownParents?: ReadonlySet<string> | undefined;
  readonly knownParentsFrom?: string | undefined;
  /** How many issues to keep in full (default MAX_ISSUES). */
  readonly maxIssues?: number | undefined;
  /** Keep each rejected record with its issues (for --errors-csv). */
  readonly keepRejected?: boolean | undefined;
  /** The keys the last upload recorded, when the baseline is at hand: a look-alike of one is refused. */
  readonly recordedKeys?: (() => Iterable<string>) | undefined;
  /** The emails the last upload recorded (team members), read only when a look-alike may need them. */
  readonly recordedEmails?: (() => Iterable<string>) | undefined;
  /** Where they were recorded, for messages ("the last upload to https://…"). */
  readonly recordedIn?: string | undefined;
}

/** A record with at least one error, as it was read, and its issues. */
export interface RejectedRecord {
  readonly raw: RawRecord;
  readonly issues: readonly Issue[];
}

/** check()'s answer when a record needs zod, which loads on first need (validate/index.ts loadSchema). */
export const NEEDS_SCHEMA = Symbol('needs the zod schema');

/** Issues kept in full; past this only their counts (a file with 2M mistakes must not need 2M objects). */
export const MAX_ISSUES = 1000;

/**
 * A copy of `text` that holds no other string alive. A cell is a slice of the decoded chunk it was
 * read from, and V8 keeps that whole chunk for as long as a slice of 13 or more characters lives: a
 * million kept keys of 20 characters held the file's whole text, 170 MB more at peak (docs/performance.md).
 */
function detached(text: string): string {
  // Shorter than 13, V8 copies a substring (and a concatenation) instead of pointing into its parent:
  // such a cell holds nothing else alive already, and a copy would be two more strings made per key.
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** rowIssues of a record without any: shared, so a valid record allocates no array. */
const NONE: Issue[] = [];

const NOT_ASCII = /[\u0080-\uffff]/;

export class Validator {
  /** The first MAX_ISSUES issues, in the order found. */
  readonly issues: Issue[] = [];
  /** How many of each code were found, all of them. */
  readonly counts: Record<string, number> = {};
  /** More issues were found than are kept. */
  truncated = false;
  /** The issues of the record being checked, all of them (for --errors-csv), whatever the limit. */
  private rowIssues: Issue[] = NONE;
  errors = 0;
  warnings = 0;
  /** Key and canonical wire JSON of each valid record, in file order (complete after finish()). */
  readonly keys: string[] = [];
  /** Each valid record's canonical JSON, as the UTF-8 bytes that will be sent. */
  bodies = new Bodies();

  // Per record checked, by its number: its line, and its body (-1 when rejected). A valid record's key
  // is in `keys` and its email in its body; only a rejected record's are kept aside. Nothing else is
  // kept per record: two more arrays of a million entries cost 4% of a 1M dry run and 50 MB.
  private checked = 0;
  /** The plan fedFlags() last answered for, and its answer. */
  private flagsPlan: ColumnPlan | undefined;
  private flags = new Uint8Array(0);
  private lines = new Int32Array(1024);
  private bodyOf = new Int32Array(1024);
  private readonly rejectedKeys = new Map<number, string>();
  private readonly rejectedEmails = new Map<number, string>();
  /** The column plan of each run of records read with one: a CSV file has one; JSON records may change it. */
  private readonly plans: ColumnPlan[] = [];
  private readonly planFirsts: number[] = [];
  private readonly keyList;
  private readonly emailList;
  /** Keys and emails beyond plain Latin, by skeleton, to find look-alikes at the end. */
  private readonly lookalikes = new Lookalikes();
  /** Key and parentKey cells that may hold a list, judged at the end. */
  private readonly lists = new ListsInCells();
  /** Rejected records with their issues, by record number (with keepRejected). */
  private readonly rejectedRecords = new Map<number, RejectedRecord>();
  /** Valid records whose key or email may repeat an earlier one, kept (with keepRejected) in case they do. */
  private readonly mayRepeat = new Map<number, RejectedRecord>();
  /** Valid records that finish() may still refuse (a look-alike, a list), kept with keepRejected. */
  private readonly lateKept = new Map<number, RejectedRecord>();

  /** Whether a record with this key was seen (valid or not), after finish(): the diff asks which baseline keys remain. */
  readonly hasKey = (key: string): boolean => this.keyList.has(key);
  /** zod, loaded the first time the fast check cannot decide a record (most files never need it). */
  private schema: (typeof SCHEMAS)[Kind] | undefined;
  private readonly accepts;
  private readonly keyField;

  private readonly maxIssues: number;

  constructor(
    readonly kind: Kind,
    private readonly options: ValidatorOptions = {},
  ) {
    this.maxIssues = options.maxIssues ?? MAX_ISSUES;
    this.accepts = ACCEPTS[kind];
    this.keyField = KINDS[kind].keyField;
    const flagRepeats = options.keepRejected === true;
    // Keys that fold to one text (`ＪＰ－００１`, `jp-001`, `JP-001`) are one key: DUPLICATE_KEY.
    this.keyList = new KeyList((record) => this.keyOf(record), { flagRepeats, lookups: true, hash: foldHash, fold: foldKey });
    // Emails too, hashed as folded without a folded string made for each (foldHash), as keys are.
    this.emailList = new KeyList((record) => this.emailOf(record), { flagRepeats, hash: foldHash, fold: foldKey });
  }

  /** The rejected records with all their issues, in file order (with keepRejected; after finish()). */
  get rejected(): RejectedRecord[] {
    return [...this.rejectedRecords.keys()].sort((a, b) => a - b).map((record) => this.rejectedRecords.get(record)!);
  }

  /** The file line of the valid record at `index` of `keys` (after finish()); a scan, for the few a service names. */
  lineOfBody(index: number): number | undefined {
    for (let record = 0; record < this.checked; record++) if (this.bodyOf[record] === index) return this.lines[record];
    return undefined;
  }

  /** A record's key: from `keys` when it was valid. */
  private keyOf(record: number): string | undefined {
    const body = this.bodyOf[record]!;
    return body === -1 ? this.rejectedKeys.get(record) : this.keys[body];
  }

  /** The column plan a record was read with. */
  private planOf(record: number): ColumnPlan {
    return this.plans[runOf(this.planFirsts, record)]!;
  }

  /** A record's email as written: from its body when it was valid. */
  private emailOf(record: number): string | undefined {
    const body = this.bodyOf[record]!;
    return body === -1 ? this.rejectedEmails.get(record) : (JSON.parse(this.bodies.json(body)) as { email: string }).email;
  }

  add(found: Issue): void {
    if (this.issues.length < this.maxIssues) this.issues.push(found);
    else this.truncated = true;
    if (this.rowIssues === NONE) this.rowIssues = [];
    this.rowIssues.push(found);
    this.counts[found.code] = (this.counts[found.code] ?? 0) + 1;
    if (found.severity === 'error') this.errors++;
    else this.warnings++;
  }

  /**
   * Per fed column of `plan`, which of SHOWN_AS_IS, IDENTIFYING and IDENTIFIERS its field is in: worked
   * out once per plan (a file has one), not by three set lookups per field of every record.
   */
  private fedFlags(plan: ColumnPlan): Uint8Array {
    if (this.flagsPlan === plan) return this.flags;
    this.flagsPlan = plan;
    this.flags = Uint8Array.from(
      plan.fed,
      ({ field }) => (SHOWN_AS_IS.has(field) ? SHOWN : 0) | (IDENTIFYING.has(field) ? IDENTIFIES : 0) | (IDENTIFIERS.has(field) ? IDENTIFIER : 0),
    );
    return this.flags;
  }

  /** Loads zod's schema for this kind; check() asks for it with NEEDS_SCHEMA. */
  async loadSchema(): Promise<void> {
    const { SCHEMAS: schemas } = await import('../contract/schemas.js');
    this.schema = schemas[this.kind];
  }

  /**
   * True when the record is valid, and then its key and wire JSON are added to `keys` and `bodies`;
   * false (with issues added) when not; or NEEDS_SCHEMA, before anything is recorded, when only zod
   * can judge it and zod is not loaded yet.
   */
  check(raw: RawRecord, plan: ColumnPlan, mapped: Mapped): boolean | typeof NEEDS_SCHEMA {
    // A day whose cells could not be read is absent from the mapped hours: the rest is checked as it is.
    // A plain record (read/types.ts) is NFC already and holds nothing invisible, NUL or broken.
    const plain = raw.plain === true;
    if (!plain) toNfc(mapped.candidate);
    const candidate = mapped.candidate;
    // Most records are valid: the fast check takes those; zod judges (and words) all the rest.
    const accepted = this.accepts(candidate);
    if (!accepted && !this.schema) return NEEDS_SCHEMA;
    const before = this.errors;
    this.rowIssues = NONE;
    if (raw.issues) for (const i of raw.issues) this.add(i);
    if (mapped.issues) for (const i of mapped.issues) this.add(i);

    let data: Record<string, unknown> | undefined;
    if (accepted) data = candidate;
    else {
      const result = this.schema!.safeParse(candidate);
      if (result.success) data = result.data;
      else {
        for (const zi of result.error.issues) {
          const field = String(zi.path[0] ?? '');
          const at = field === 'opentToGuestsPeriod' ? this.hoursCell(plan, raw, zi.path) : cellOf(plan, raw, field);
          // A formula the reader found uncalculated is not empty but unknown: named once, as that.
          if (raw.issues?.some((i) => i.code === 'FORMULA_NOT_CALCULATED' && i.column === at.column)) continue;
          const written = at.value === undefined || at.value === null ? null : asText(at.value);
          if (field === 'email' && zi.path.length === 1) {
            const list = emailList('email', candidate.email, { line: raw.line, column: at.column });
            if (list) {
              this.add(list);
              continue;
            }
          }
          const { code, message } = describe(zi, written, valueAt(candidate, zi.path));
          this.add(issue('error', code, message, { line: raw.line, column: at.column, field: zi.path.join('.') || null, value: at.value }));
        }
      }
    }

    this.cellCount(raw, plan);
    // A plain record's candidate is as mapped: its values are read by place, not by name.
    const values = plain ? mapped.values : undefined;
    this.spreadsheet(raw, plan, candidate, values, plain, this.fedFlags(plan));
    const record = this.checked;
    /** Whether finish() may yet refuse the record (a look-alike, a list): kept for --errors-csv. */
    let judgedLate = false;
    const flags = this.fedFlags(plan);
    const { fed } = plan;
    for (let k = 0; k < fed.length; k++) {
      if ((flags[k]! & SHOWN) === 0) continue;
      const { field, index, column, place, parts } = fed[k]!;
      // A plain record's cells hold no hidden character (read/types.ts): nothing to look for. A field
      // joined from several columns (`name` from First and Last) is looked for in each of its cells.
      const hidden = plain ? undefined : this.hiddenIn(field, raw, index, parts, plan);
      if (hidden) this.add(hidden);
      if ((flags[k]! & IDENTIFIES) === 0) continue;
      const sent = values && place >= 0 ? values[place] : candidate[field];
      // ASCII in a plain record is its own NFKC and needs no skeleton: one native search, the usual case.
      if (typeof sent !== 'string' || (plain && !NOT_ASCII.test(sent))) continue;
      // Beyond it, what the checks below ask of a plain record's value, in one pass (else the tests themselves).
      const classes = plain ? plainClasses(sent) : BEYOND_TABLE;
      const asked = (classes & BEYOND_TABLE) !== 0;
      const lookalike = asked || (classes & COMPATIBLE) !== 0 ? lookalikeCharacter(field, sent, plain, { line: raw.line, column }) : undefined;
      if (lookalike) this.add(lookalike);
      // A value already refused for a hidden character is not also a look-alike (its skeleton drops it).
      if (hidden || (asked ? !needsSkeleton(sent) : (classes & NEEDS_SKELETON) === 0)) continue;
      // Beyond plain Latin: a word in two scripts is refused here; a look-alike of another record at the end.
      const mixed = mixedScriptIssue(field, sent, { line: raw.line, column });
      if (mixed) this.add(mixed);
      if (field === this.keyField || (field === 'email' && this.kind === 'team-members')) {
        this.lookalikes.add(field, record, sent);
        judgedLate = true;
      }
    }
    const lists = this.lists.candidates.length;
    if (this.kind === 'team-members') this.lists.parent(record, candidate.parentKey);
    this.lists.key(record, candidate[this.keyField]);
    if (this.lists.candidates.length > lists) judgedLate = true;

    const key = typeof candidate[this.keyField] === 'string' && candidate[this.keyField] !== '' ? (candidate[this.keyField] as string) : undefined;
    let email: string | undefined;
    let mayRepeat = this.keyList.add(key);
    if (this.kind === 'team-members') {
      if (typeof candidate.email === 'string' && candidate.email) email = candidate.email;
      mayRepeat = this.emailList.add(email) || mayRepeat;
      const parent = candidate.parentKey;
      const known = this.options.knownParents;
      // A list of known stores is MULTIPLE_VALUES at the end, not an unknown store.
      if (known && typeof parent === 'string' && !known.has(parent) && !(SEPARATOR.test(parent) && partsOf(parent).every((p) => known.has(p)))) {
        this.add(
          issue(
            'warning',
            'UNKNOWN_PARENT',
            `parentKey '${parent}' matches no store card's nodeKey in ${this.options.knownParentsFrom ?? 'the store cards'}; check the key, or upload the store card first`,
            { line: raw.line, column: cellOf(plan, raw, 'parentKey').column, field: 'parentKey', value: parent },
          ),
        );
      }
    }

    // Keys and emails are compared with the others at the end (finish()); the record is valid until then.
    this.checked++;
    if (record === this.lines.length) {
      this.lines = doubled(this.lines);
      this.bodyOf = doubled(this.bodyOf);
    }
    this.lines[record] = raw.line;
    if (this.plans.at(-1) !== plan) {
      this.plans.push(plan);
      this.planFirsts.push(record);
    }
    if (this.errors > before || data === undefined || key === undefined) {
      this.bodyOf[record] = -1;
      if (key !== undefined) this.rejectedKeys.set(record, key);
      if (email !== undefined) this.rejectedEmails.set(record, email);
      if (this.options.keepRejected && this.errors > before) this.rejectedRecords.set(record, { raw, issues: this.rowIssues });
      return false;
    }
    // The map stage builds a record's fields in contract order (zod's output follows the schema), so
    // this is its canonical JSON. Encoded once, here, straight to the bytes that are sent.
    this.bodyOf[record] = this.bodies.length;
    this.keys.push(detached(key));
    // A plain team member the fast check accepted is its mapped values, in wire order, each a string or
    // null: written from them, nothing read by name.
    if (accepted && values) this.bodies.pushValues(FIELDS[this.kind], values as readonly (string | null)[]);
    else this.bodies.pushRecord(data);
    if (mayRepeat) this.mayRepeat.set(record, { raw, issues: this.rowIssues });
    else if (judgedLate && this.options.keepRejected) this.lateKept.set(record, { raw, issues: this.rowIssues });
    return true;
  }

  /**
   * After the last record: every key and email that repeats an earlier one, or looks like another
   * (LOOKALIKE_KEY, LOOKALIKE_EMAIL), and every key or parentKey cell that holds a list
   * (MULTIPLE_VALUES), is an error on its record, which is rejected (its body leaves `bodies`). The
   * issues are then put in line order.
   */
  finish(): void {
    const late: { record: number; issue: Issue }[] = [];
    const repeats = [
      ...this.keyList.finish().map((r) => ({ ...r, field: this.keyField })),
      ...(this.kind === 'team-members' ? this.emailList.finish().map((r) => ({ ...r, field: 'email' })) : []),
    ].sort((a, b) => a.entry - b.entry || (a.field === 'email' ? 1 : -1));
    for (const { entry: record, first, field } of repeats) late.push({ record, issue: this.repeatIssue(record, first, field) });
    for (const found of this.lookalikes.find(this.keyField, this.checked, (r) => this.keyOf(r), this.options.recordedKeys)) {
      const at = this.cellAt(found.record, this.keyField);
      const other = found.otherRecord === undefined ? undefined : this.lines[found.otherRecord];
      late.push({ record: found.record, issue: lookalikeIssue(this.keyField, found, at, other, this.options.recordedIn ?? 'the last upload') });
    }
    if (this.kind === 'team-members') {
      for (const found of this.lookalikes.find('email', this.checked, (r) => this.emailOf(r), this.options.recordedEmails)) {
        const at = this.cellAt(found.record, 'email');
        const other = found.otherRecord === undefined ? undefined : this.lines[found.otherRecord];
        late.push({ record: found.record, issue: lookalikeIssue('email', found, at, other, this.options.recordedIn ?? 'the last upload') });
      }
    }
    for (const list of this.listsInCells()) late.push(list);
    if (late.length === 0) return;
    late.sort((a, b) => a.record - b.record);
    const dropped = new Uint8Array(this.bodies.length);
    for (const { record, issue: found } of late) {
      this.rowIssues = NONE;
      this.add(found);
      const body = this.bodyOf[record]!;
      if (body !== -1) dropped[body] = 1;
      if (!this.options.keepRejected) continue;
      const kept = this.rejectedRecords.get(record) ?? this.mayRepeat.get(record) ?? this.lateKept.get(record);
      if (kept) this.rejectedRecords.set(record, { raw: kept.raw, issues: [...kept.issues, ...this.rowIssues] });
    }
    // The rejected bodies leave; each record's body number follows, and a rejected key is kept aside,
    // so keyOf() (and hasKey()) still answer. Bodies are in record order, so one pass does it.
    let at = 0;
    for (let record = 0; record < this.checked; record++) {
      const body = this.bodyOf[record]!;
      if (body === -1) continue;
      if (dropped[body]) {
        this.rejectedKeys.set(record, this.keys[body]!);
        this.bodyOf[record] = -1;
        continue;
      }
      this.keys[at] = this.keys[body]!;
      this.bodyOf[record] = at++;
    }
    this.keys.length = at;
    this.bodies = this.bodies.without(dropped);
    this.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  }

  /** DUPLICATE_KEY or DUPLICATE_EMAIL for a record whose key or email repeats the one on `first`. */
  private repeatIssue(record: number, first: number, field: string): Issue {
    const written = field === 'email' ? this.emailOf(record)! : this.keyOf(record)!;
    const earlier = field === 'email' ? this.emailOf(first)! : this.keyOf(first)!;
    // Said outright when the two are not the same text as written: which is which is the user's question.
    const what = field === 'email' ? 'emails' : 'keys';
    const how =
      earlier.toLowerCase() !== written.toLowerCase()
        ? ` as '${earlier}' (${what} are compared ignoring case and full-width or compatibility forms)`
        : field === 'email'
          ? ' (emails are compared ignoring case)'
          : earlier !== written
            ? ` as '${earlier}' (keys are compared ignoring case)`
            : '';
    return issue(
      'error',
      field === 'email' ? 'DUPLICATE_EMAIL' : 'DUPLICATE_KEY',
      `${field} '${written}' already appears on line ${this.lines[first]}${how}; each ${field} must be unique: remove or fix one of the rows`,
      { ...this.cellAt(record, field), field, value: written },
    );
  }

  /** A record's line, and the column its field was read from. */
  private cellAt(record: number, field: string): { line: number; column: string | null } {
    const plan = this.planOf(record);
    const index = plan.fields.get(field);
    return { line: this.lines[record]!, column: index === undefined ? null : (plan.columns[index] ?? null) };
  }

  /**
   * MULTIPLE_VALUES for each key or parentKey cell that is a list on evidence (lists.ts): every part a
   * store card's key (known from the service or --store-cards, or written alone as a parentKey in
   * this file), or every part another record's key (in this file or recorded), and the whole none.
   */
  private listsInCells(): { record: number; issue: Issue }[] {
    const found: { record: number; issue: Issue }[] = [];
    if (this.lists.candidates.length === 0) return found;
    const known = this.options.knownParents;
    // The parentKeys written alone in this file, looked for only where the known stores do not tell.
    const wanted = new Set(this.lists.candidates.flatMap((c) => (c.field === 'parentKey' ? c.parts : [])).filter((v) => !known?.has(v)));
    const inFile = wanted.size > 0 ? parentKeysIn(this.bodies, wanted) : new Set<string>();
    let recorded: Set<string> | undefined;
    for (const { record, field, value, parts } of this.lists.candidates) {
      const isStore = (v: string): boolean => known?.has(v) === true || inFile.has(v);
      let evidence: string | undefined;
      if (field === 'parentKey') {
        // The whole is a store only by the store cards: in the file it is this very row's parentKey.
        if (known?.has(value) !== true && parts.every(isStore)) {
          evidence = parts.every((p) => known?.has(p))
            ? `each a store card's nodeKey in ${this.options.knownParentsFrom ?? 'the store cards'}`
            : 'each a parentKey of other rows in this file';
        }
      } else {
        recorded ??= new Set(this.options.recordedKeys?.() ?? []);
        const isKey = (v: string): boolean => this.keyList.has(v) || recorded!.has(v);
        if (!recorded.has(value) && parts.every(isKey)) evidence = `each the ${this.keyField} of another record`;
      }
      if (evidence === undefined) continue;
      const name = field === 'key' ? this.keyField : field;
      found.push({ record, issue: listIssue(name, value, parts, evidence, this.cellAt(record, name)) });
    }
    return found;
  }

  /** The first control or invisible character in the cells that feed a field, named at its own column. */
  private hiddenIn(field: string, raw: RawRecord, index: number, parts: readonly number[] | undefined, plan: ColumnPlan): Issue | undefined {
    const at = (i: number) => invisibleCharacter(field, raw.cells[i], false, { line: raw.line, column: plan.columns[i] ?? null });
    if (!parts) return at(index);
    for (const part of parts) {
      const hidden = at(part);
      if (hidden) return hidden;
    }
    return undefined;
  }

  /** Damage a spreadsheet did (or would do) to a cell: identifiers in scientific notation, formulas. */
  private spreadsheet(
    raw: RawRecord,
    plan: ColumnPlan,
    candidate: Record<string, unknown>,
    values: readonly unknown[] | undefined,
    plain: boolean,
    flags: Uint8Array,
  ): void {
    const { fed } = plan;
    for (let k = 0; k < fed.length; k++) {
      const { field, index, column, place } = fed[k]!;
      const sent = values && place >= 0 ? values[place] : candidate[field];
      if (typeof sent !== 'string') continue;
      const value = raw.cells[index];
      // NUL and lone surrogates (text damaged by a bad conversion) are never what a person meant to send.
      if (!plain && (sent.includes('\0') || !sent.isWellFormed())) {
        const what = sent.includes('\0') ? 'a NUL character (U+0000)' : 'a broken character (a lone UTF-16 surrogate: the text was damaged by a conversion)';
        this.add(
          issue('error', 'INVALID_CHARACTER', `${field} holds ${what}; fix the cell, or export the file again`, {
            line: raw.line,
            column,
            field,
            value: JSON.stringify(sent),
          }),
        );
      } else if ((flags[k]! & IDENTIFIER) !== 0 && mayBeNumber(sent) && SCIENTIFIC.test(sent)) {
        this.add(
          issue(
            'error',
            'SCIENTIFIC_NOTATION',
            `${field} '${sent}' looks like a number a spreadsheet rewrote in scientific notation, which loses digits; format the column as Text in the spreadsheet and export again`,
            { line: raw.line, column, field, value },
          ),
        );
      } else if (typeof value === 'string' && (formulaLike(value) || formulaLike(sent))) {
        const first = formulaLike(value) ? value[0] : sent[0];
        this.add(
          issue(
            'warning',
            'FORMULA_LIKE',
            `${field} '${value}' starts with '${first === '\t' ? 'tab' : first}' and may be taken for a formula by a spreadsheet; it is sent as written, never altered`,
            { line: raw.line, column, field, value },
          ),
        );
      }
    }
  }

  /** More filled cells than header columns: usually an unquoted delimiter that shifted the row. */
  private cellCount(raw: RawRecord, plan: ColumnPlan): void {
    const width = raw.columns.length;
    for (let i = width; i < raw.cells.length; i++) {
      const cell = raw.cells[i];
      if (typeof cell !== 'string' || cell.trim() === '') continue;
      this.add(
        issue(
          'error',
          'TOO_MANY_CELLS',
          `the row has ${raw.cells.length} cells but the header has ${width} columns (extra cell '${cell}'); a cell that holds the delimiter must be in quotes: fix the row`,
          { line: raw.line, value: cell },
        ),
      );
      return;
    }
    if (raw.cells.length < width) {
      // Some writers drop trailing empty cells; a cut-off line looks the same. Warn, and read them as empty.
      const missing = raw.columns.slice(raw.cells.length).filter(Boolean);
      this.add(
        issue(
          'warning',
          'TOO_FEW_CELLS',
          `the row has ${raw.cells.length} cells but the header has ${width} columns; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} taken as empty: check that the line is complete`,
          { line: raw.line },
        ),
      );
      return;
    }
    for (const i of plan.unnamed) {
      const cell = raw.cells[i];
      if (typeof cell !== 'string' || cell.trim() === '') continue;
      this.add(
        issue(
          'error',
          'CELL_WITHOUT_COLUMN',
          `the cell '${cell}' is in column ${i + 1}, which has no name in the header: usually a cell holding the delimiter without quotes shifted the row; fix the row, or name the column`,
          { line: raw.line, value: cell },
        ),
      );
      return;
    }
  }

  private hoursCell(plan: ColumnPlan, raw: RawRecord, path: readonly PropertyKey[]): { column: string | null; value: unknown } {
    const day = Number(path[1]);
    const cols = Number.isInteger(day) ? plan.days[day] : undefined;
    let index = plan.hoursJson;
    if (cols?.layout === 'range') index = cols.index;
    else if (cols?.layout === 'pair') index = path[2] === 'since' ? cols.since : cols.to;
    if (index === undefined) return { column: null, value: undefined };
    const cell = raw.cells[index];
    return { column: plan.columns[index] ?? null, value: index === plan.hoursJson && Number.isInteger(day) ? dayValue(cell, day) : cell };
  }
}

/** The column that feeds a wire field and the cell as written, or nulls when no column does. */
function cellOf(plan: ColumnPlan, raw: RawRecord, field: string): { column: string | null; value: unknown } {
  const index = plan.fields.get(field);
  return index === undefined ? { column: null, value: undefined } : { column: plan.columns[index] ?? null, value: raw.cells[index] };
}

/** The value the contract saw at a path, to show next to the cell as written (5 from '05:00-22:00'). */
function valueAt(candidate: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let v: unknown = candidate;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}
