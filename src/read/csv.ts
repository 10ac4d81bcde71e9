// CSV (RFC 4180) to raw records, with the physical line where each record starts.
import { parse, CsvError } from 'csv-parse';
import { InputError, UsageError } from '../errors.js';
import { FORBIDDEN_KEYS, MAX_RECORD_CHARS, type RawRecord } from './types.js';

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

/** Lines a record spans beyond its first: line breaks can only sit inside quoted fields. */
function extraLines(cells: readonly string[]): number {
  let n = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
    for (let i = 0; i < cell.length; i++) {
      const c = cell.charCodeAt(i);
      if (c === 10 || (c === 13 && cell.charCodeAt(i + 1) !== 10)) n++;
    }
  }
  return n;
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

async function* withDelimiter(
  text: AsyncIterable<string>,
  delimiter: string | undefined,
): AsyncGenerator<string | { delimiter: string }> {
  let head = '';
  let detected = delimiter !== undefined;
  if (detected) yield { delimiter: delimiter! };
  for await (const chunk of text) {
    if (!detected) {
      head += chunk;
      const eol = head.search(/[\r\n]/);
      if (eol === -1 && head.length < MAX_RECORD_CHARS) continue;
      yield { delimiter: detectDelimiter(eol === -1 ? head : head.slice(0, eol)) };
      detected = true;
      yield head;
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

export async function* readCsv(
  text: AsyncIterable<string>,
  source: string,
  delimiterFlag: string | undefined,
  onDelimiter?: (delimiter: string) => void,
): AsyncGenerator<RawRecord> {
  const input = withDelimiter(text, delimiterFlag);
  const first = await input.next();
  if (first.done || typeof first.value === 'string') return;
  onDelimiter?.(first.value.delimiter);
  let nextLine = 1;
  const parser = parse({
    delimiter: first.value.delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    max_record_size: MAX_RECORD_CHARS,
    skip_empty_lines: false,
    // Numbered as the parser meets them, not as we consume them: records it has buffered when an
    // error strikes are never consumed, yet the error must name the line where its record starts.
    on_record: ((cells: string[]) => {
      const record = { line: nextLine, cells };
      nextLine += 1 + extraLines(cells);
      return record;
    }) as unknown as (cells: string[]) => string[],
  });
  // Feed the parser from the decoded text while we consume its records; errors surface on read.
  const feed = (async () => {
    try {
      for await (const chunk of input) {
        if (typeof chunk !== 'string') continue;
        if (parser.destroyed) return; // the reader stopped early (a bad header, a syntax error)
        if (!parser.write(chunk)) await drainedOrClosed(parser);
      }
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();

  let columns: string[] | undefined;
  try {
    for await (const { line, cells } of parser as AsyncIterable<{ line: number; cells: string[] }>) {
      if (!columns) {
        columns = checkHeader(source, cells);
        continue;
      }
      if (isBlank(cells)) continue;
      yield { line, columns, cells };
    }
  } catch (err) {
    if (err instanceof CsvError) throw csvError(source, nextLine, err);
    throw err;
  } finally {
    parser.destroy();
    await feed;
  }
}

/** Waits for room in the parser; a parser that failed or was stopped never drains, but it closes. */
function drainedOrClosed(parser: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });
}

function csvError(source: string, line: number, err: CsvError): InputError {
  if (err.code === 'CSV_MAX_RECORD_SIZE') {
    return new InputError(
      'RECORD_TOO_LARGE',
      `${source}:${line}: a record is larger than 1 MiB`,
      'this is usually an unclosed quote: check the quotes near that line',
    );
  }
  const quote = /quote/i.test(err.message) || err.code.includes('QUOTE');
  return new InputError(
    'CSV_SYNTAX',
    `${source}:${line}: ${quote ? 'a quoted field is not closed or is followed by other characters' : err.message}`,
    quote
      ? 'a field that holds a quote must be wrapped in quotes with the quote doubled (""): fix the cell'
      : 'fix the line and run again',
  );
}
