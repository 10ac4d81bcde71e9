// Decoded UTF-8 text as several strings instead of one, so that most records end up one-byte strings.
// V8 stores a string in one byte per character when every character is Latin-1 (U+0000–U+00FF), and
// in two otherwise; one character beyond Latin-1 anywhere in a 256 KiB chunk made the whole decoded
// chunk, every cell sliced from it and every body built from those two-byte: twice the memory and
// twice the copying for the garbage collector. Decoding each run of lines that holds no such
// character on its own keeps those lines one-byte. The text is the same, only cut in more places.

/** A lead byte of a character beyond U+00FF (U+0100 and up start at 0xC4). */
const WIDE_LEAD = 0xc4;
const LF = 10;

/**
 * `bytes` (whole, valid UTF-8 characters) decoded as consecutive strings: the line the last chunk left
 * unfinished, then runs of whole lines that are Latin-1 only, and the lines that are not.
 */
export function latin1Runs(bytes: Buffer): string[] {
  const n = bytes.length;
  const out: string[] = [];
  let pos = bytes.indexOf(LF) + 1;
  if (pos === 0 || pos === n) return [bytes.toString('utf8')];
  out.push(bytes.toString('utf8', 0, pos));
  for (let k = pos; ; ) {
    while (k < n && bytes[k]! < WIDE_LEAD) k++;
    if (k === n) break;
    const lineStart = bytes.lastIndexOf(LF, k) + 1;
    const next = bytes.indexOf(LF, k);
    const lineEnd = next === -1 ? n : next + 1;
    if (lineStart > pos) out.push(bytes.toString('utf8', pos, lineStart));
    // Wide lines next to each other share one string.
    let end = lineEnd;
    for (k = lineEnd; k < n; ) {
      const nl = bytes.indexOf(LF, k);
      const stop = nl === -1 ? n : nl + 1;
      let j = k;
      while (j < stop && bytes[j]! < WIDE_LEAD) j++;
      if (j === stop) break;
      end = k = stop;
    }
    out.push(bytes.toString('utf8', lineStart, end));
    pos = k = end;
  }
  if (pos < n) out.push(bytes.toString('utf8', pos, n));
  return out;
}
