// Decoded UTF-8 text as several strings instead of one, so that most records end up one-byte strings.
// V8 stores a string in one byte per character when every character is Latin-1 (U+0000–U+00FF), and
// in two otherwise; one character beyond Latin-1 anywhere in a 256 KiB chunk made the whole decoded
// chunk, every cell sliced from it and every body built from those two-byte: twice the memory and
// twice the copying for the garbage collector. Decoding each run of lines that holds no such
// character on its own keeps those lines one-byte. The text is the same, only cut in more places.

/** A lead byte of a character beyond U+00FF (U+0100 and up start at 0xC4), in the bytes read as Latin-1. */
const WIDE_LEAD = /[\xc4-\xff]/g;

/**
 * `bytes` (whole, valid UTF-8 characters, best cut at a line end) decoded as consecutive strings: runs
 * of whole lines that are Latin-1 only, and the lines that are not.
 */
export function latin1Runs(bytes: Buffer): string[] {
  // The bytes as one-byte characters: a regular expression and indexOf find the wide lines fast.
  const b = bytes.toString('latin1');
  const n = b.length;
  const out: string[] = [];
  let pos = 0;
  WIDE_LEAD.lastIndex = pos;
  for (let m = WIDE_LEAD.exec(b); m; m = WIDE_LEAD.exec(b)) {
    const lineStart = b.lastIndexOf('\n', m.index) + 1;
    let end = lineEnd(b, m.index);
    // Wide lines next to each other share one string.
    while (end < n) {
      WIDE_LEAD.lastIndex = end;
      const next = WIDE_LEAD.exec(b);
      if (!next || b.lastIndexOf('\n', next.index) + 1 !== end) break;
      end = lineEnd(b, next.index);
    }
    if (lineStart > pos) out.push(bytes.toString('utf8', pos, lineStart));
    out.push(bytes.toString('utf8', lineStart, end));
    pos = WIDE_LEAD.lastIndex = end;
  }
  if (pos < n) out.push(bytes.toString('utf8', pos, n));
  return out;
}

function lineEnd(b: string, from: number): number {
  const nl = b.indexOf('\n', from);
  return nl === -1 ? b.length : nl + 1;
}
