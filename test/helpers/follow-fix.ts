// Follows a fix the tool offers (`error.fixes`, `issues[].fixes`; docs/report.md "Fixes, as data")
// the way a script would, with no judgement of its own: the suite runs the command again as the fix
// says and checks what comes of it (docs/development.md, "Hints are followed").
import { readFileSync, writeFileSync } from 'node:fs';
import type { Fix } from '../../src/errors.js';

export type { Fix };

export interface FollowOptions {
  /** The file a `cell` fix is written into (a CSV file; the record on one physical line). */
  readonly file?: string;
  /**
   * Words the harness adds to every run and a `command` fix does not carry (`--json`, `--state DIR`):
   * a fix names what the person runs, the test still needs its report and its own state.
   */
  readonly keep?: readonly string[];
}

/**
 * The command line to run after following `fix` on `argv` (the words after `upload`):
 * - `flags`: the same words with the fix's added — before a `--`, after which every word is an argument;
 * - `command`: the fix's words (and `keep`);
 * - `cell`: the same words, once the cell is written in `file`.
 */
export function followFix(argv: readonly string[], fix: Fix, options: FollowOptions = {}): string[] {
  switch (fix.kind) {
    case 'flags': {
      const end = argv.indexOf('--');
      return end === -1 ? [...argv, ...fix.args] : [...argv.slice(0, end), ...fix.args, ...argv.slice(end)];
    }
    case 'command':
      return [...fix.args, ...(options.keep ?? [])];
    case 'cell':
      if (options.file === undefined) throw new Error(`a cell fix (line ${fix.line}, column '${fix.column}') needs the file to write it in`);
      writeCell(options.file, fix.line, fix.column, fix.text);
      return [...argv];
  }
}

/** The fixes of a --json report: the error's, then each issue's, in the order they came. */
export function fixesOf(report: { error?: { fixes?: readonly Fix[] } | null; issues?: readonly { fixes?: readonly Fix[] }[] }): Fix[] {
  return [...(report.error?.fixes ?? []), ...(report.issues ?? []).flatMap((i) => i.fixes ?? [])];
}

const DELIMITERS = [',', ';', '\t', '|'];

/**
 * Writes `text` in one cell of a CSV file: `line` is the physical line (1 the header), `column` the
 * header's name for it. The other cells keep their bytes as written (quotes, spaces); the new cell is
 * quoted when it must be. The delimiter is the one the header uses most.
 */
export function writeCell(file: string, line: number, column: string, text: string): void {
  const content = readFileSync(file, 'utf8');
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
  const lines = content.slice(bom.length).split(/(?<=\n)/);
  const header = lines[0]?.replace(/\r?\n$/, '') ?? '';
  const delimiter = DELIMITERS.reduce((best, d) => (header.split(d).length > header.split(best).length ? d : best), ',');
  const names = splitCells(header, delimiter).map(unquote);
  const index = names.indexOf(column);
  if (index === -1) throw new Error(`${file}: no column '${column}' in the header (${names.join(', ')})`);
  const target = lines[line - 1];
  if (target === undefined) throw new Error(`${file}: no line ${line}`);
  const ending = /\r?\n$/.exec(target)?.[0] ?? '';
  const cells = splitCells(target.slice(0, target.length - ending.length), delimiter);
  while (cells.length <= index) cells.push('');
  cells[index] = quoteIfNeeded(text, delimiter);
  lines[line - 1] = cells.join(delimiter) + ending;
  writeFileSync(file, bom + lines.join(''));
}

/** A line's cells as written, quotes and all (a quoted delimiter stays inside its cell). */
function splitCells(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    if (ch === delimiter && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

function unquote(cell: string): string {
  const t = cell.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
}

function quoteIfNeeded(text: string, delimiter: string): string {
  return /["\r\n]/.test(text) || text.includes(delimiter) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}
