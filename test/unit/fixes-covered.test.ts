// Every hint is a command the suite has followed (issue 40): each error and issue code either has a
// case in the corpus that follows its fixes (test/e2e/hints-followed.cases.ts), or is listed here as
// having no fix, with why — and a code whose docs/report.md row names a flag says, in its reason, why
// each flag it names is no fix a script could take. The lead adds rows here when merging a branch that
// gives a code its fixes (a case) or owns one (OWNED_ELSEWHERE, until then).
import { readdirSync, readFileSync } from 'node:fs';
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
  WORKBOOK_EMPTY: file,
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
  // the guards and the run
  LEADING_ZEROS_LOST:
    "the file must be exported again keeping IDs as text (in its own --format), or the old keys taken off (--keys-file): the person's; neither --max-removals nor --hold-removals is the fix",
  LOCK_HELD: again,
  LOCK_LOST: again,
  DECLINED: again,
  STATE_MOVED: `${again}; a settle's \`upload state resolve KIND --previous\` is the state's (policy / identity / held)`,
  OUTCOME_UNKNOWN: again,
  // the service
  REJECTED: "the service's own reasons say what to change in the records",
  UNAUTHORIZED: 'the token is a secret only the person can correct',
  REDIRECT: 'a redirect may point anywhere, and the token would go there: the person says whether it is the address (--base-url)',
  UNREACHABLE: "the network, the address or the proxy: the person's to check",
  SERVER_ERROR: "the service's to mend; the same upload may be run again once it answers",
  ANSWER_MALFORMED: "the service's answer, not the command, is wrong",
  STATUS_MISMATCH: "the service's answer, not the command, is wrong",
  COUNT_MISMATCH: "the service's answer, not the command, is wrong",
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
  HOURS_ORDER: cell,
  HOURS_OUT_OF_RANGE: cell,
  HOLIDAYS_LEFT_OUT: 'a note: the holidays were left out, the rest read',
  REQUIRED: cell,
  INVALID_EMAIL: cell,
  INVALID_VALUE: cell,
  NOT_A_NUMBER: cell,
  INEXACT_NUMBER: cell,
  WRONG_TYPE: cell,
  UNKNOWN_FIELD: file,
  SCIENTIFIC_NOTATION: 'the ID Excel rounded is lost from the file: it must be exported again as text',
  FORMULA_LIKE: 'a note: the value is sent as written',
  INVALID_CHARACTER: cell,
  ERROR_CELL: cell,
  DUPLICATE_KEY: cell,
  DUPLICATE_EMAIL: cell,
  UNKNOWN_PARENT: 'a note: the store card may be uploaded later (--store-cards checks against a file)',
};

/**
 * Codes whose words another engineer of this round is changing: the lead moves each to a case or to
 * NO_FIX when merging their branch (the owner, and what their hint offers).
 */
export const OWNED_ELSEWHERE: Readonly<Record<string, string>> = {
  BAD_USAGE: 'argv-formulas (src/cli/argv.ts): unknown flags and values',
  SHEET_NOT_FOUND: 'formulas (src/read/xlsx*): --sheet NAME of the sheets the workbook has',
  NOT_UTF8: 'codepages (src/read/decode.ts): --encoding PAGE, ranked',
  NOT_UTF16: 'codepages (src/read/decode.ts)',
  SUSPECT_ENCODING: 'codepages: --encoding of the better reading',
  FORMULA_NOT_CALCULATED: 'formulas (src/read/xlsx*)',
  INVISIBLE_CHARACTER: 'lookalikes (src/validate): the cell without the character',
  LOOKALIKE_CHARACTER: 'lookalikes (src/validate): the cell in its plain form',
  MISSING_COLUMN: 'leavers-hints (src/map/column-plan.ts)',
  MAPPED_COLUMN_MISSING: 'leavers-hints (src/map/column-plan.ts)',
  AMBIGUOUS_COLUMN: 'leavers-hints (src/map/column-plan.ts): --map with "ignore"',
  COLUMN_IGNORED: 'leavers-hints (src/map/column-plan.ts)',
  IGNORED_COLUMN_MISSING: 'leavers-hints (src/map/column-plan.ts)',
  UNPLACED_COLUMN: 'leavers-hints (src/map/columns.ts): --map or --ignore-column',
  UNKNOWN_COLUMN: 'leavers-hints (src/map/column-plan.ts): --map or --ignore-column',
  UNUSED_COLUMNS: 'leavers-hints: the --map line and --ignore-column flags',
  LEAVER_ROW: 'leavers-hints: --status-column COL --active VALUES',
  STATUS_EXCLUDED: 'leavers-hints',
  PLAN_BASE_URL: 'policy / identity / held (plans)',
  PLAN_INVALID: 'policy / identity / held (plans)',
  PLAN_STALE: 'policy / identity / held (plans): a new plan with --dry-run --plan-out FILE',
  PLAN_REQUIRED: 'policy / identity / held (four eyes): plan, approve, apply',
  NOT_APPROVED: 'policy / identity / held (four eyes)',
  SELF_APPROVAL: 'policy / identity / held (four eyes)',
  PLAN_CHANGED: 'policy / identity / held (four eyes)',
  PLAN_USED: 'policy / identity / held (four eyes)',
  PLAN_UNRECORDED: 'policy / identity / held (four eyes)',
  UNKNOWN_TARGET: 'policy / identity / held (targets)',
  PROTECTED_TARGET: 'policy / identity / held (targets): --target NAME',
  CONFLICTING_ADDRESS: 'policy / identity / held (targets)',
  STATE_UNREACHABLE: 'policy / identity / held (src/state)',
  STATE_UNUSABLE: 'policy / identity / held (src/state)',
  STATE_TIMEOUT: 'policy / identity / held (src/state)',
  SNAPSHOT_CORRUPT: 'policy / identity / held (src/state)',
  BASELINE_UNCERTAIN: 'policy / identity / held (state): upload state resolve KIND --sent or --previous',
  PENDING_DAMAGED: 'policy / identity / held (state): upload state resolve KIND --previous',
  LOCK_LOST_WHILE_SENDING: 'policy / identity / held (state): upload state resolve',
  NOT_RECORDED: 'policy / identity / held (state): upload state resolve --sent',
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
    const where = [FOLLOWED.has(code) && 'a case', code in NO_FIX && 'NO_FIX', code in OWNED_ELSEWHERE && 'OWNED_ELSEWHERE'].filter(Boolean);
    expect(where, `${code} must be in exactly one of the corpus, NO_FIX or OWNED_ELSEWHERE`).toHaveLength(1);
    if (!(code in NO_FIX)) return;
    // A row or a hint that offers a flag, with a reason that does not say why that flag is no fix, is a hint nobody followed.
    const flags = [...new Set([...(row(code).match(/--[a-z][a-z-]*/g) ?? []), ...(SOURCE.get(code) ?? [])])];
    expect(
      flags.filter((f) => !NO_FIX[code]!.includes(f)),
      `NO_FIX.${code} does not say why these flags of its docs/report.md row or its hint are no fix`,
    ).toEqual([]);
  });

  it('lists no code the source does not have', () => {
    expect([...FOLLOWED, ...Object.keys(NO_FIX), ...Object.keys(OWNED_ELSEWHERE)].filter((c) => !ALL.includes(c))).toEqual([]);
  });
});
