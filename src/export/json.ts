// An export as JSON: the recorded wire records as they are, one per line in an array — a file the
// tool reads back to the same records, and that diffs line by line in version control.
export function* jsonChunks(records: Iterable<string>): Generator<string> {
  let first = true;
  let batch = '[';
  let n = 0;
  for (const record of records) {
    batch += `${first ? '\n' : ',\n'}  ${record}`;
    first = false;
    if (++n % 1000 === 0) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}${first ? ']' : '\n]'}\n`;
}
