// EXPERIMENT (not part of the tool): a string-based RFC 4180 parser, fed decoded chunks, yielding
// batches of records with the physical line each starts on. Measures what a parser that does not
// round-trip through Buffers (as csv-parse does, byte by byte) would cost.
// Semantics kept: delimiter given, record delimiters \r\n \n \r, "" inside quotes, a quote after a
// closing quote or inside an unquoted field is an error, a record over maxChars is an error.
export class FastCsv {
  constructor(delimiter, maxChars = 1 << 20) {
    this.d = delimiter.charCodeAt(0);
    this.max = maxChars;
    this.rest = '';
    this.line = 1; // line of the next record
  }

  /** Parses whole records from `chunk` (plus what was left before); returns [{line, cells}]. */
  push(chunk, last = false) {
    const s = this.rest ? this.rest + chunk : chunk;
    const out = [];
    const d = this.d;
    const n = s.length;
    let i = 0;
    let line = this.line;
    let recordStart = 0;
    outer: while (i < n) {
      recordStart = i;
      const startLine = line;
      const cells = [];
      for (;;) {
        // one field
        if (s.charCodeAt(i) === 34) {
          let value = '';
          let from = i + 1;
          for (;;) {
            const q = s.indexOf('"', from);
            if (q === -1 || q + 1 >= n && !last) { if (q === -1 && last) throw new Error(`line ${startLine}: unclosed quote`); break outer; }
            if (s.charCodeAt(q + 1) === 34) { value += s.slice(from, q + 1); from = q + 2; continue; }
            value += s.slice(from, q);
            for (let k = i; k < q; k++) { const c = s.charCodeAt(k); if (c === 10 || (c === 13 && s.charCodeAt(k + 1) !== 10)) line++; }
            i = q + 1;
            break;
          }
          cells.push(value);
          const c = i < n ? s.charCodeAt(i) : -1;
          if (c === d) { i++; continue; }
          if (c === 10) { i++; line++; break; }
          if (c === 13) { if (i + 1 >= n && !last) break outer; i += s.charCodeAt(i + 1) === 10 ? 2 : 1; line++; break; }
          if (c === -1) { if (last) break; break outer; }
          throw new Error(`line ${startLine}: a quoted field is followed by other characters`);
        }
        let j = i;
        let c = -1;
        for (; j < n; j++) {
          c = s.charCodeAt(j);
          if (c === d || c === 10 || c === 13) break;
          if (c === 34) throw new Error(`line ${startLine}: a quote inside an unquoted field`);
        }
        if (j >= n) { if (!last) break outer; cells.push(s.slice(i, j)); i = j; break; }
        cells.push(s.slice(i, j));
        i = j + 1;
        if (c === d) continue;
        if (c === 13) { if (i >= n && !last) break outer; if (s.charCodeAt(i) === 10) i++; }
        line++;
        break;
      }
      out.push({ line: startLine, cells });
      recordStart = i;
      if (i > n) break;
    }
    this.rest = recordStart < n ? s.slice(recordStart) : '';
    // line counts past the last whole record are recounted next time
    this.line = out.length ? line - (recordStart < n ? 0 : 0) : this.line;
    if (recordStart < n) this.line = this.recount(out, line);
    if (this.rest.length > this.max) throw new Error(`line ${this.line}: record over ${this.max} chars`);
    return out;
  }

  recount(out) {
    // The line of the first unfinished record: the last record's line plus the lines it spans.
    if (!out.length) return this.line;
    const last = out[out.length - 1];
    let extra = 1;
    for (const cell of last.cells) for (let k = 0; k < cell.length; k++) { const c = cell.charCodeAt(k); if (c === 10 || (c === 13 && cell.charCodeAt(k + 1) !== 10)) extra++; }
    return last.line + extra;
  }
}
