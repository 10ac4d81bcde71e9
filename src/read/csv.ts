// CSV (RFC 4180) to raw records, with the physical line where each record starts: the delimiter, the
// header checks and the messages; the parsing itself is ./csv-parser.ts.
import { InputError, UsageError } from '../errors.js';
import { CsvParser, CsvSyntaxError, type ParsedRecord } from './csv-parser.js';
import { FORBIDDEN_KEYS, MAX_RECORD_CHARS, type RawRecord, type ReadInfo } from './types.js';

export const DELIMITERS = [',', ';', '\t', '|'] as const;

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/** `--delimiter` accepts the character itself or its name ("tab", "semicolon"…). */
export function parseDelimiterFlag(value: string): string {
  const byName = Object.entries(DELIMITER_NAMES).find(([, name]) => name === value.toLowerCase());
  const d = value === '\\t' ? '\t' : (byName?.[0] ?? value);
  if (!(DELIMITERS as readonly string[]).includes(d)) {
    throw new UsageError('BAD_FLAG', `--delimiter '${value}' is not one of , ; | or tab`, "use --delimiter ',' ';' '|' or tab");
  }
  return d;
}

/** The delimiter that occurs most often outside quotes in the header line; comma on a tie or none. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  const most = Math.max(...counts.values());
  const leaders = DELIMITERS.filter((d) => counts.get(d) === most);
  // A tie (or no delimiter at all) is no evidence for any one of them: the comma, the default.
  return most === 0 || leaders.length > 1 ? ',' : leaders[0]!;
}

const DELIMITERS_ONLY = /^[\s,;|]*$/;

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) {
    // Printable ASCII first (the usual cell) is not white space: no trimmed copy to make.
    const c = cell.charCodeAt(0);
    if ((c > 32 && c < 127) || cell.trim() !== '') return false;
  }
  return true;
}

/**
 * A header row (CSV or workbook): trimmed names in NFC (as every text is sent), none forbidden, none
 * twice. `columnName` words a column's place (a workbook's says "column C (hidden)").
 */
export function checkHeader(source: string, line: number, header: readonly string[], columnName?: (i: number) => string): string[] {
  const columns = header.map((h) => h.trim().normalize('NFC'));
  const seen = new Map<string, number>();
  columns.forEach((name, i) => {
    if (FORBIDDEN_KEYS.has(name)) {
      throw new InputError('FORBIDDEN_KEY', `${source}:${line}: column name '${name}' is not allowed`, 'rename the column');
    }
    if (name === '') return;
    const first = seen.get(name);
    if (first !== undefined) {
      throw new InputError(
        'DUPLICATE_COLUMN',
        `${source}:${line}: column '${name}' appears twice (${columnName ? `${columnName(first)} and ${columnName(i)}` : `columns ${first + 1} and ${i + 1}`})`,
        'rename or delete one of them',
      );
    }
    seen.set(name, i);
  });
  return columns;
}

/** Excel's first line `sep=;` names the delimiter (and is not the header). */
const SEP_LINE = /^sep=([,;\t|])$/i;

/** Blank lines before the header are skipped (as blank lines anywhere are), for detection too. */
function firstLine(head: string): { line: string; complete: boolean } {
  // A line of spaces, no-break spaces or delimiters only (`,,,,` from a spreadsheet) is blank too.
  const rest = head.replace(/^(?:[ \t\u00a0,;|]*(?:\r\n|\r|\n))+/, '');
  const eol = rest.search(/[\r\n]/);
  return eol === -1 ? { line: rest, complete: false } : { line: rest.slice(0, eol), complete: true };
}

async function* withDelimiter(text: AsyncIterable<string>, delimiter: string | undefined): AsyncGenerator<string | { delimiter: string; sepLine: boolean }> {
  let head = '';
  let only: string | undefined; // the first chunk, while it is all of head: passed on as it came
  let detected = delimiter !== undefined;
  const decide = (line: string) => {
    const sep = SEP_LINE.exec(line);
    return { delimiter: delimiter ?? (sep ? sep[1]! : detectDelimiter(line)), sepLine: sep !== null };
  };
  if (detected) {
    // --delimiter given: the first line is still looked at, for Excel's `sep=` line to skip.
    let first = true;
    for await (const chunk of text) {
      if (first) {
        head += chunk;
        const line = firstLine(head);
        if (!line.complete && head.length < MAX_RECORD_CHARS) continue;
        yield decide(line.line);
        yield head;
        first = false;
        continue;
      }
      yield chunk;
    }
    if (first) {
      yield decide(firstLine(head).line);
      if (head) yield head;
    }
    return;
  }
  for await (const chunk of text) {
    if (!detected) {
      only = head === '' ? chunk : undefined;
      head += chunk;
      const first = firstLine(head);
      if (!first.complete && head.length < MAX_RECORD_CHARS) continue;
      yield decide(first.line);
      detected = true;
      yield only ?? head;
      head = '';
      continue;
    }
    yield chunk;
  }
  if (!detected) {
    yield decide(firstLine(head).line);
    if (head) yield head;
  }
}

/**
 * Whether text starts like JSON (`[{`, `[]`, `{"`), once enough of it has come to tell: undefined
 * while only white space, `[` or `{` has been seen (stdin may bring one character at a time).
 */
function looksLikeJson(start: string): boolean | undefined {
  const t = start.trimStart();
  if (t === '') return undefined;
  if (t[0] !== '[' && t[0] !== '{') return false;
  const rest = t.slice(1).trimStart();
  if (rest === '') return undefined;
  return t[0] === '[' ? rest[0] === '{' || rest[0] === ']' : rest[0] === '"';
}

/** The records of a CSV text, a batch per decoded chunk (an `await` per record costs more than the record). */
export async function* readCsvBatches(
  text: AsyncIterable<string>,
  source: string,
  delimiterFlag: string | undefined,
  info: ReadInfo,
): AsyncGenerator<RawRecord[]> {
  const input = withDelimiter(text, delimiterFlag);
  const first = await input.next();
  if (first.done || typeof first.value === 'string' || !('delimiter' in first.value)) return;
  info.delimiter = first.value.delimiter;
  let skipSepLine = first.value.sepLine;
  const parser = new CsvParser(first.value.delimiter, MAX_RECORD_CHARS);
  let columns: string[] | undefined;
  const records = (parsed: ParsedRecord[], out: RawRecord[] = []): RawRecord[] => {
    for (const record of parsed) {
      const { line, cells, plain } = record;
      if (!columns) {
        // Blank lines before the header are skipped like blank lines anywhere; so is `sep=;`, and so is
        // a line of other delimiters only (`,,,,` above a `;` header), as detection skipped it.
        if (isBlank(cells) || (cells.length === 1 && DELIMITERS_ONLY.test(cells[0]!))) continue;
        if (skipSepLine) {
          skipSepLine = false;
          continue;
        }
        columns = checkHeader(source, line, cells);
        info.header = columns;
        info.headerLine = line;
        parser.columns = columns;
      } else if (!isBlank(cells)) out.push(record.columns === columns ? record : { line, columns, cells, plain });
    }
    return out;
  };
  // JSON read as CSV (stdin has no extension to go by) would fail on its quotes, far from the cause:
  // text is held back until its start tells whether it is JSON, however it was cut into chunks.
  let held: string | undefined = '';
  let lastChar = '';
  let sawCrlf = false;
  const feed = (part: string): RawRecord[] => {
    const batch: RawRecord[] = [];
    if (part) lastChar = part[part.length - 1]!;
    records(parser.push(part), batch);
    return batch;
  };
  try {
    for await (const chunk of input) {
      if (typeof chunk !== 'string') continue;
      let part = chunk;
      if (held !== undefined) {
        held += part;
        const json = looksLikeJson(held);
        if (json === undefined && held.length < 4096) continue;
        if (json) {
          // An array is JSON; an object first is NDJSON (a JSON object alone is neither, and says so).
          const format = held.trimStart().startsWith('[') ? 'json' : 'ndjson';
          throw new InputError(
            'WRONG_FORMAT',
            `${source}:1: this looks like JSON, but it is being read as CSV`,
            format === 'json' ? 'pass --format json (the file is an array)' : 'pass --format ndjson (the file starts with an object: one object per line)',
          ).withFixes({ kind: 'flags', args: ['--format', format] });
        }
        part = held;
        held = undefined;
      }
      sawCrlf ||= part.includes('\r\n');
      const batch = feed(part);
      if (batch.length) yield batch;
    }
    const batch = held ? feed(held) : [];
    records(parser.end(), batch);
    // A last record with no line break after it may be a file cut short mid-row (`DE-` for `DE-042`).
    const last = batch[batch.length - 1];
    // Its lines' ending says which writer it was: Google Sheets ends lines in CRLF and the file in none.
    if (last && lastChar !== '\n' && lastChar !== '\r') batch[batch.length - 1] = { ...last, unterminated: sawCrlf ? 'crlf' : 'lf' };
    if (batch.length) yield batch;
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw csvError(source, err);
    throw err;
  }
}

function csvError(source: string, err: CsvSyntaxError): InputError {
  if (err.reason === 'too-large') {
    return new InputError(
      'RECORD_TOO_LARGE',
      `${source}:${err.line}: a record is longer than 1,048,576 characters`,
      'this is usually an unclosed quote: check the quotes near that line',
    );
  }
  return new InputError(
    'CSV_SYNTAX',
    `${source}:${err.line}: a quoted field is not closed or is followed by other characters`,
    'a field that holds a quote must be wrapped in quotes with the quote doubled (""): fix the cell',
  );
}
