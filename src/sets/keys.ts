// The keys `upload remove` is given: on the command line, and one per line in --keys-file FILE.
// Each is trimmed (as a cell is); blank lines are skipped; a key given twice counts once.

export function keyList(args: readonly string[], fileText?: string): string[] {
  const all = [...args, ...(fileText === undefined ? [] : fileText.replace(/^\uFEFF/, '').split(/\r?\n/))];
  return [...new Set(all.map((k) => k.trim()).filter((k) => k !== ''))];
}
