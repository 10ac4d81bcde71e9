// JSON.parse keeps the last of two equal keys in one object and says nothing: a record written
// {"email": "a@x", …, "email": "b@x"} would lose a value silently. This finds such a key in an
// object's text, at any depth, before anything is sent.
import { issue, type Issue } from '../issues.js';

export interface RepeatedKey {
  readonly key: string;
  /** Offsets in the text of the first and the repeated key. */
  readonly first: number;
  readonly at: number;
}

/** The first key written twice in one object of `text` (valid JSON), or undefined. */
export function repeatedKey(text: string): RepeatedKey | undefined {
  // One map of key → offset per open object; arrays hold no keys (null marks them).
  const open: (Map<string, number> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) open.push(new Map());
    else if (c === 91) open.push(null);
    else if (c === 125 || c === 93) open.pop();
    else if (c === 34) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      const keys = open.at(-1);
      if (!keys) continue;
      let j = i + 1;
      while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13)) j++;
      if (text.charCodeAt(j) !== 58) continue; // a value, not a key
      // "\u0061" and "a" are one key, as JSON.parse decodes them.
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      const first = keys.get(key);
      if (first !== undefined) return { key, first, at: start };
      keys.set(key, start);
    }
  }
  return undefined;
}

const linesBefore = (text: string, offset: number) => {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/** The DUPLICATE_KEY issue for a record whose text (starting on `line`) repeats a key, or undefined. */
export function repeatedKeyIssue(text: string, line: number): Issue | undefined {
  const found = repeatedKey(text);
  if (!found) return undefined;
  const first = line + linesBefore(text, found.first);
  const again = line + linesBefore(text, found.at);
  const where = first === again ? `twice on line ${again}` : `on line ${first} and again on line ${again}`;
  return issue(
    'error',
    'DUPLICATE_KEY',
    `key '${found.key}' is written ${where} in one object; JSON readers keep only the last, so a value would be lost without a word: remove one of them`,
    { line: again, column: found.key },
  );
}
