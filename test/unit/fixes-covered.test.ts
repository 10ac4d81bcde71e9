// Every hint is a command the suite has followed (issue 40): each error and issue code either has a
// case in the corpus that follows its fixes (test/e2e/hints-followed.cases.ts), or an end-to-end test
// of its own that follows them (FOLLOWED_IN), or is listed here as having no fix, with why — and a
// code whose docs/report.md row or hint names a flag says, in its reason, why each flag it names is no
// fix a script could take.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { ISSUE_CODES } from '../../src/issues.js';
import { ROOT } from '../helpers/cli.js';
import { CASES } from '../e2e/hints-followed.cases.js';

const file = 'the file itself must change: only the person knows the right content';
const again = 'the remedy is the same command run again (later, or after answering), not a change to it';
const cell = "the cell's right value is the person's to write: the message names it, no value can be guessed";

/** Codes that offer no fix as data, and why. Every flag the code's docs/report.md row names is in its reason. */
export const NO_FIX: Readonly<Record<string, string>> = {
  // usage
  BAD_BASE_URL: "the address is the person's to correct; a user or password in it belongs in UPLOAD_TOKEN or --token-file, a secret",
  INSECURE_BASE_URL: 'https:// on the same host is a guess: whether the service answers there only the person knows',
  NO_BASE_URL: '--base-url, UPLOAD_BASE_URL or a --target need the address of the service, which only the person knows (also for --plan-out and --merge)',
  BAD_CA_FILE: 'NODE_EXTRA_CA_CERTS is a file of certificates only the person has',
  NO_TOKEN: 'the token (UPLOAD_TOKEN, --token-env, --token-file, SANDBOX_TOKEN) is a secret only the person has',
  BAD_TOKEN: 'the token is a secret only the person can correct, where it is read from (--token-file)',
  TOKEN_FILE_UNREADABLE: '--token-file names a file only the person can correct',
  STDIN_TWICE: "which of the records, the token (--token-file), --baseline and --store-cards goes in a file is the person's choice, and the file theirs",
  BAD_MAPPING: "--map is the person's mapping to correct",
  // the layout remembered per header (docs/input.md): whether changed columns are meant is the person's to judge
  LAYOUT_NOT_SAME:
    'the remedy is a judgement that the new columns are meant, then the same command without --same-layout (a flag to drop, which no fix as data can say; followed in test/e2e/layout-memory.test.ts); --dry-run without it shows how they are read',
  LAYOUT_CHANGED: 'a warning naming the changed columns for the person to check; --same-layout makes it the refusal LAYOUT_NOT_SAME',
  VALUE_NOT_IN_TABLE: "what the text stands for is the person's to say: an entry in the --map value table, or the cell corrected; no value can be guessed",
  FLAG_FILE_TOO_LARGE: '--token-file, --map, --keys-file or the config file names the wrong file: only the person knows the right one',
  NOT_A_FILE: 'the config file, --config, --token-file, --map or --keys-file names no regular file: only the person knows which is meant',
  SANDBOX_CANNOT_LISTEN:
    "upload sandbox has no --json to carry fixes: its --port 0 is followed as written (hints-followed.test.ts); a --host not of this machine is the person's to correct",
  SANDBOX_DATA_INVALID: 'a set in --data-dir was changed by hand: the person mends or moves it',
  SANDBOX_NOT_LOOPBACK: '--allow-remote with --host opens the sandbox to other machines: a decision, never a default to take',
  OUTPUT_UNWRITABLE: "the folder of --errors-csv, --payload-out, --diff-out, --plan-out, --report-html, --html or --output is the person's to choose",
  NO_HISTORY: "which service and store were meant (--base-url, --state, --target, --merge) is the person's to say; `upload history` only shows them",
  NO_PENDING: 'nothing is waiting to be settled: there is nothing to do',
  BAD_GENERATION: "which upload to restore or export (--generation N) is the person's choice; `upload history` lists them, --keep keeps more",
  BAD_NOTIFY_URL: "the webhook address (--notify) is the person's",
  BAD_CONFIG: "the config file (--config) is the person's to correct",
  UNTRUSTED_CONFIG: "who may write the config file is the owner's to settle (chmod, chown); a copy passed with --config is theirs to make",
  // the file
  INVALID_RECORDS: "its fixes are its issues' (issues[].fixes), each followed by its own code's case",
  CANNOT_READ: 'the file (or --keys-file) cannot be read: only the person can say where it is, or make it readable',
  WORKBOOK_TOO_LARGE: file,
  WORKBOOK_UNREADABLE: file,
  MERGED_HEADER: 'unmerging is an edit of the workbook; --header-row N only once that row names every column',
  CSV_SYNTAX: file,
  RECORD_TOO_LARGE: file,
  DUPLICATE_COLUMN: file,
  FORBIDDEN_KEY: file,
  JSON_SYNTAX: file,
  JSON_TOO_DEEP: file,
  NOT_AN_OBJECT: file,
  BASELINE_INVALID: '--baseline FILE: another file, or this one mended, only the person has',
  UNKNOWN_KEY: "which key was meant is the person's: a near key it names is a guess (`upload remove` sends a removal)",
  DUPLICATE_IN_SET: "which of two records stays is the person's; `--merge` or `--hold-removals` only the person can drop",
  NOT_UTF16: file,
  // targets and plans
  UNKNOWN_TARGET:
    "which target (--target, UPLOAD_TARGET) was meant, or which config file (--config), is the person's: the message lists the targets the config has",
  CONFLICTING_ADDRESS: "which of two addresses is the service is the person's: drop --base-url (or UPLOAD_BASE_URL) or --target, as the message says",
  PLAN_INVALID: 'a new plan (--dry-run --plan-out FILE) needs the records file, which only the person has',
  PLAN_STALE: 'a new plan (--dry-run --plan-out FILE) against what the service holds now needs the records file, which only the person has',
  PLAN_CHANGED: 'a new plan (--dry-run --plan-out FILE), approved again, needs the records file, which only the person has',
  PLAN_USED: 'a plan is applied once: a new one (--dry-run --plan-out FILE) needs the records file, which only the person has',
  PLAN_UNRECORDED:
    "apply it as it is, or set approvals on the target and make a new plan (--dry-run --plan-out FILE): the person's choice, and the records file theirs",
  FORGED_RECORD: "a record in another person's name is the store owner's to look into: no command makes it count",
  // the guards and the run
  LEADING_ZEROS_LOST:
    "the file must be exported again keeping IDs as text (in its own --format), or the old keys taken off (--keys-file): the person's; neither --max-removals nor --hold-removals is the fix",
  LOCK_HELD: again,
  LOCK_LOST: again,
  DECLINED: again,
  STATE_MOVED: `${again}; a settle's \`upload state resolve KIND --previous\` is the state's (policy / identity / held)`,
  // the state store
  STATE_UNREACHABLE:
    'the database, the URL in --state / UPLOAD_STATE, the role or its password, or a server slow or held by another session (statement_timeout, UPLOAD_STATE_TIMEOUT_SECONDS): the person or the administrator checks them, then runs again',
  STATE_UNUSABLE: "the store (--state) needs the rights or the tables of docs/state.md, or a folder moved aside: an administrator's to mend",
  SNAPSHOT_CORRUPT:
    "a damaged history is restored from a backup, or the state (--state) moved aside and compared with --baseline FILE (an export only the person has); settling with --previous is the person's choice",
  OUTCOME_UNKNOWN: again,
  // the service
  REJECTED: "the service's own reasons say what to change in the records",
  UNAUTHORIZED: 'the token is a secret only the person can correct',
  REDIRECT: 'a redirect may point anywhere, and the token would go there: the person says whether it is the address (--base-url)',
  UNREACHABLE: "the network, the address or the proxy: the person's to check",
  SERVER_ERROR: "the service's to mend; the same upload may be run again once it answers",
  ANSWER_UNCONFIRMED: "the service's answer, not the command, is wrong",
  INTERRUPTED: 'the person stopped it',
  INTERNAL_ERROR: 'a bug to report (UPLOAD_DEBUG=1 shows where)',
  // issues
  EMPTY_FILE: 'an empty file on purpose is a header line or [] and --allow-empty: the file must change first',
  HIDDEN_SHEET: 'a note: --sheet read the hidden sheet as asked',
  FORMAT_FROM_CONTENT: 'a note: the file was read as what its bytes are; --format is only for the person who knows better',
  HIDDEN_ROWS_EXCLUDED: 'a note of what --hidden-rows exclude left out',
  NO_RECORDS: 'a note: the file has a header and no records',
  NO_FINAL_LINE_BREAK: 'a question only the person can answer: is the last value complete?',
  CELL_WITHOUT_COLUMN: file,
  TOO_FEW_CELLS: file,
  TOO_MANY_CELLS: file,
  AMBIGUOUS_WEEKDAY: "which language the columns are in is the person's to say, by renaming one or leaving it out (--ignore-column)",
  HOURS_PAIR_INCOMPLETE: cell,
  HOURS_TWICE:
    "whether the column or --closed-days is wrong is the person's to say (drop the day, or the column with --ignore-column or from --map); --split-hours is for one day's two periods",
  DAY_ROWS_DISAGREE: "which of one store's rows is right (its email, a day closed or open) is the person's to say: no flag chooses a row",
  HOURS_ORDER: cell,
  HOURS_OUT_OF_RANGE: cell,
  HOLIDAYS_LEFT_OUT: 'a note: the holidays were left out, the rest read',
  OPEN_ALL_DAY: "a note: the day is read as the service's whole day (6-30), the widest it holds; nothing to do",
  REQUIRED: cell,
  INVALID_EMAIL: cell,
  INVALID_VALUE: cell,
  NOT_A_NUMBER: cell,
  INEXACT_NUMBER: cell,
  WRONG_TYPE: cell,
  SCIENTIFIC_NOTATION: 'the ID Excel rounded is lost from the file: it must be exported again as text',
  FORMULA_LIKE: 'a note: the value is sent as written',
  INVALID_CHARACTER: cell,
  ERROR_CELL: cell,
  DUPLICATE_KEY: cell,
  DUPLICATE_EMAIL: cell,
  UNKNOWN_PARENT: 'a note: the store card may be uploaded later (--store-cards checks against a file)',
  // columns
  MAPPED_COLUMN_MISSING: "--map or --status-column names a column the file lacks: which was meant is the person's (the message lists the columns)",
  AMBIGUOUS_COLUMN: "which of two columns means the field is the person's: the --map the message shows is one of two readings",
  COLUMN_IGNORED: 'a note: the mapping takes the field from another column',
  IGNORED_COLUMN_MISSING: 'a note: the ignore list or --no-status-column names a column the file lacks, and the run goes on',
  UNKNOWN_COLUMN: 'a note: a column the tool does not use',
  LEAVER_ROW:
    "its fixes are the STATUS_COLUMN_UNDECIDED issue's, always beside it (--status-column COL --active VALUES, --no-status-column COL), followed in that code's tests",
  STATUS_EXCLUDED: 'a note of the rows --status-column and --active left out, as asked',
  // look-alikes
  LOOKALIKE_KEY: "which of the two look-alike keys is wrong (this cell, or the other line or the last upload) is the person's",
  LOOKALIKE_EMAIL: "which of the two look-alike emails is wrong (this cell, or the other line or the last upload) is the person's",
  MULTIPLE_VALUES: "which of the values this record means is the person's (each other one needs its own row)",
};

/**
 * Codes whose fixes an end-to-end test of their own follows, not a corpus case: the files (under test/)
 * that run the real CLI, meet the code, read its `error.fixes` / `issues[].fixes` and run them (or,
 * where the remedy is words by design, do what the words say), and check the result is what the
 * person means or another refusal. Each file must exist and name the code and its fixes.
 */
export const FOLLOWED_IN: Readonly<Record<string, readonly string[]>> = {
  // `upload state resolve KIND --sent|--previous`, with the run's store and service (src/cli/fix-scope.ts)
  BASELINE_UNCERTAIN: ['test/e2e/fencing-and-write-ahead.test.ts'],
  LOCK_LOST_WHILE_SENDING: ['test/e2e/fencing-and-write-ahead.test.ts'],
  NOT_RECORDED: ['test/e2e/fencing-and-write-ahead.test.ts'],
  PENDING_DAMAGED: ['test/e2e/resolve-damaged-state.test.ts'],
  // A plan for another target: its own target's command (another address has no fix: a new plan).
  PLAN_BASE_URL: ['test/e2e/targets.test.ts'],
  // the file's clock: its --time-format fix followed to the other reading
  CLOCK_FROM_EVIDENCE: ['test/e2e/hours-words.test.ts'],
  // a `command` fix: the same words, a value that starts with a dash joined to its flag
  BAD_USAGE: ['test/e2e/flag-values.test.ts'],
  // code pages: each `--encoding` fix followed over recorded names, until the names are as recorded
  NOT_UTF8: ['test/e2e/code-pages-followed.test.ts'],
  SUSPECT_ENCODING: ['test/e2e/code-pages-followed.test.ts'],
  // no `--encoding` reads both parts (its fixes are []): the line corrected, as the words say, is sent
  MIXED_ENCODING: ['test/e2e/code-pages-followed.test.ts'],
  // words by design (no fixes): the workbook opened and saved in LibreOffice, then sent
  FORMULA_NOT_CALCULATED: ['test/e2e/formulas-uncalculated.test.ts'],
  // the cell without the character
  INVISIBLE_CHARACTER: ['test/e2e/lookalikes.test.ts'],
  // columns: --status-column/--active or --no-status-column; --map or --ignore-column
  STATUS_COLUMN_UNDECIDED: ['test/e2e/status-column.test.ts', 'test/e2e/hr-export-leavers.test.ts'],
  UNPLACED_COLUMN: ['test/e2e/column-guesses.test.ts'],
  UNUSED_COLUMNS: ['test/e2e/column-guesses.test.ts', 'test/e2e/hr-export-leavers.test.ts'],
  // four eyes: plan, approve (by someone else), apply
  PLAN_REQUIRED: ['test/e2e/four-eyes-roles.test.ts'],
  NOT_APPROVED: ['test/e2e/four-eyes-roles.test.ts'],
  SELF_APPROVAL: ['test/e2e/four-eyes-roles.test.ts'],
  // --target NAME (a run), the approve command with it (a plan), --base-url ADDRESS (a policy in the store)
  PROTECTED_TARGET: ['test/e2e/address-spellings.test.ts', 'test/e2e/four-eyes-roles.test.ts', 'test/e2e/policy-directory.test.ts'],
  // another upload's release
  NOTHING_HELD: ['test/e2e/held-removals-release.test.ts'],
  // plans kept in the store: the approve command, --plan N, the policy's floor
  AWAITING_APPROVAL: ['test/e2e/policy-postgres.test.ts', 'test/e2e/policy-directory.test.ts', 'test/e2e/policy-directory-accounts.test.ts'],
  NO_WAITING_PLAN: ['test/e2e/policy-directory.test.ts'],
  CHOOSE_PLAN: ['test/e2e/policy-directory.test.ts'],
  POLICY_WEAKER: ['test/e2e/policy-directory.test.ts'],
};

const doc = readFileSync(`${ROOT}/docs/report.md`, 'utf8');

/**
 * The flags each code's source words name: the arguments of `new …Error('CODE', …)` and `issue(…,
 * 'CODE', …)` in src/, read to their closing parenthesis. (Codes built from a variable, as the guards'
 * and the hours' are, are checked through their docs row and their corpus case.)
 */
function sourceFlags(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  for (const file of files(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new [A-Z][A-Za-z]*\(\s*'([A-Z][A-Z_0-9]+)'|issue\(\s*'(?:error|warning)',\s*'([A-Z][A-Z_0-9]+)'/g)) {
      let depth = 0;
      let end = m.index + m[0].indexOf('(');
      for (; end < text.length; end++) {
        if (text[end] === '(') depth++;
        else if (text[end] === ')' && --depth === 0) break;
      }
      const code = (m[1] ?? m[2])!;
      for (const flag of text.slice(m.index, end).match(/--[a-z][a-z-]*/g) ?? []) found.set(code, (found.get(code) ?? new Set()).add(flag));
    }
  }
  return found;
}
const SOURCE = sourceFlags();
const row = (code: string) => doc.split('\n').find((l) => l.startsWith(`| \`${code}\` |`)) ?? '';
const ALL: readonly string[] = [...Object.values(ERROR_CODES).flat(), ...ISSUE_CODES];
const FOLLOWED = new Set(CASES.map((c) => c.code));

describe('every code has its fixes followed, or says why it has none', () => {
  it.each(ALL)('%s', (code) => {
    const where = [FOLLOWED.has(code) && 'a case', code in NO_FIX && 'NO_FIX', code in FOLLOWED_IN && 'FOLLOWED_IN'].filter(Boolean);
    expect(where, `${code} must be in exactly one of the corpus, NO_FIX or FOLLOWED_IN`).toHaveLength(1);
    if (!(code in NO_FIX)) return;
    // A row or a hint that offers a flag, with a reason that does not say why that flag is no fix, is a hint nobody followed.
    const flags = [...new Set([...(row(code).match(/--[a-z][a-z-]*/g) ?? []), ...(SOURCE.get(code) ?? [])])];
    expect(
      flags.filter((f) => !NO_FIX[code]!.includes(f)),
      `NO_FIX.${code} does not say why these flags of its docs/report.md row or its hint are no fix`,
    ).toEqual([]);
  });

  // A file named is one that meets the code and follows its fixes: it exists, and names both.
  it.each(Object.entries(FOLLOWED_IN).flatMap(([code, files]) => files.map((file) => [code, file] as const)))('%s is followed in %s', (code, file) => {
    expect(file, 'a test file under test/').toMatch(/^test\/.+\.test\.ts$/);
    const path = join(ROOT, file);
    expect(existsSync(path), `${file} does not exist`).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text.includes(code), `${file} does not name ${code}`).toBe(true);
    expect(/\bfixes\b|\bfollowFix\b/.test(text), `${file} does not read fixes`).toBe(true);
  });

  it('lists no code the source does not have', () => {
    expect([...FOLLOWED, ...Object.keys(NO_FIX), ...Object.keys(FOLLOWED_IN)].filter((c) => !ALL.includes(c))).toEqual([]);
  });
});
