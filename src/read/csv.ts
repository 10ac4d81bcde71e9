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
    throw new UsageError(
      'BAD_DELIMITER',
      `--delimiter '${value}' is not one of , ; | or tab`,
      "use --delimiter ',' ';' '|' or tab",
    );
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
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}

function checkHeader(source: string, header: readonly string[]): string[] {
  const columns = header.map((h) => h.trim());
  const seen = new Map<string, number>();
  columns.forEach((name, i) => {
    if (FORBIDDEN_KEYS.has(name)) {
      throw new InputError('FORBIDDEN_KEY', `${source}:1: column name '${name}' is not allowed`, 'rename the column');
    }
    if (name === '') return;
    const first = seen.get(name);
    if (first !== undefined) {
      throw new InputError(
        'DUPLICATE_COLUMN',
        `${source}:1: column '${name}' appears twice (columns ${first + 1} and ${i + 1})`,
        'rename or delete one of them',
      );
    }
    seen.set(name, i);
  });
  return columns;
}

/** Decoded text: a string, or consecutive strings (./latin1-runs.ts). */
export type TextPart = string | readonly string[];

async function* withDelimiter(
  text: AsyncIterable<TextPart>,
  delimiter: string | undefined,
): AsyncGenerator<TextPart | { delimiter: string }> {
  let head = '';
  let only: TextPart | undefined; // the first chunk, while it is all of head: passed on as it came
  let detected = delimiter !== undefined;
  if (detected) yield { delimiter: delimiter! };
  for await (const chunk of text) {
    if (!detected) {
      only = head === '' ? chunk : undefined;
      head += typeof chunk === 'string' ? chunk : chunk.join('');
      const eol = head.search(/[\r\n]/);
      if (eol === -1 && head.length < MAX_RECORD_CHARS) continue;
      yield { delimiter: detectDelimiter(eol === -1 ? head : head.slice(0, eol)) };
      detected = true;
      yield only ?? head;
      head = '';
      continue;
    }
    yield chunk;
  }
  if (!detected) {
    yield { delimiter: detectDelimiter(head.split(/[\r\n]/, 1)[0] ?? '') };
    if (head) yield head;
  }
}

/** The records of a CSV text, a batch per decoded chunk (an `await` per record costs more than the record). */
export async function* readCsvBatches(
  text: AsyncIterable<TextPart>,
  source: string,
  delimiterFlag: string | undefined,
  info: ReadInfo,
): AsyncGenerator<RawRecord[]> {
  const input = withDelimiter(text, delimiterFlag);
  const first = await input.next();
  if (first.done || typeof first.value === 'string' || !('delimiter' in first.value)) return;
  info.delimiter = first.value.delimiter;
  const parser = new CsvParser(first.value.delimiter, MAX_RECORD_CHARS);
  let columns: string[] | undefined;
  const records = (parsed: ParsedRecord[], out: RawRecord[] = []): RawRecord[] => {
    for (const { line, cells } of parsed) {
      if (!columns) {
        columns = checkHeader(source, cells);
        info.header = columns;
      } else if (!isBlank(cells)) out.push({ line, columns, cells });
    }
    return out;
  };
  let start = true;
  try {
    for await (const chunk of input) {
      if (typeof chunk !== 'string' && !Array.isArray(chunk)) continue;
      // JSON read as CSV (stdin has no extension to go by) would fail on its quotes, far from the cause.
      if (start && /^\s*(?:\[\s*[{\]]|\{\s*")/.test(typeof chunk === 'string' ? chunk : chunk.join(''))) {
        throw new InputError('LOOKS_LIKE_JSON', `${source}:1: this looks like JSON, but it is being read as CSV`, 'pass --format json (an array) or --format ndjson (one object per line)');
      }
      start = false;
      let batch: RawRecord[];
      if (typeof chunk === 'string') batch = records(parser.push(chunk));
      else {
        batch = [];
        for (const part of chunk as readonly string[]) records(parser.push(part), batch);
      }
      if (batch.length) yield batch;
    }
    const batch = records(parser.end());
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
      `${source}:${err.line}: a record is larger than 1 MiB`,
      'this is usually an unclosed quote: check the quotes near that line',
    );
  }
  return new InputError(
    'CSV_SYNTAX',
    `${source}:${err.line}: a quoted field is not closed or is followed by other characters`,
    'a field that holds a quote must be wrapped in quotes with the quote doubled (""): fix the cell',
  );
}
