// Cells of the CSV files the tool writes for people to open in Excel. A cell that starts like a
// formula (= + - @, a tab or a carriage return) would be run by the spreadsheet; OWASP's advice is to
// prefix it with a single quote, which Excel shows as text and does not evaluate.
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** One cell, neutralised and quoted when it holds the delimiter, a quote or a line break. */
export function csvCell(cell: string, delimiter: string): string {
  const safe = neutralise(cell);
  const needs = safe.includes(delimiter) || safe.includes('"') || safe.includes('\n') || safe.includes('\r');
  return needs ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[], delimiter: string): string {
  return cells.map((c) => csvCell(c, delimiter)).join(delimiter);
}
