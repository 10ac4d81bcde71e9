// JSON arrays and NDJSON to raw records. The array is split element by element from a stream, so a
// file of any size is read with memory for one record at a time, and each element keeps its line.
import { InputError } from '../errors.js';
import { repeatedKeyIssue } from './json-keys.js';
import { FORBIDDEN_KEYS, MAX_RECORD_CHARS, type RawRecord } from './types.js';

export interface JsonElement {
  readonly line: number;
  readonly text: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Yields the text of each element of a top-level JSON array of objects, with the line of its `{`.
 * Only the structure is scanned here; each element is then parsed by JSON.parse.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>, source: string, maxElementChars = MAX_RECORD_CHARS): AsyncGenerator<JsonElement> {
  let state: 'start' | 'first' | 'next' | 'comma' | 'in' | 'end' = 'start';
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let partsLength = 0;
  let elementLine = 0;
  const fail = (what: string): never => {
    throw new InputError('JSON_SYNTAX', `${source}:${line}: ${what}`, 'the file must hold one JSON array of objects: [{…}, {…}]');
  };

  for await (const chunk of chunks) {
    let start = 0; // where the current element's text begins in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) line++;
      if (state === 'in') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92) escaped = true;
          else if (c === 34) inString = false;
          continue;
        }
        if (c === 34) inString = true;
        else if (c === 123 || c === 91) depth++;
        else if (c === 125 || c === 93) {
          if (--depth === 0) {
            parts.push(chunk.slice(start, i + 1));
            const text = parts.length === 1 ? parts[0]! : parts.join('');
            parts = [];
            partsLength = 0;
            state = 'comma';
            if (text.length > maxElementChars) tooLarge(source, elementLine);
            yield { line: elementLine, text };
          }
        }
        continue;
      }
      if (WS.has(c)) continue;
      if (state === 'start') {
        if (c !== 91) fail('expected a JSON array starting with [');
        state = 'first';
      } else if (state === 'first' || state === 'next') {
        if (c === 93 && state === 'first') state = 'end';
        else if (c === 123) {
          state = 'in';
          depth = 1;
          start = i;
          elementLine = line;
        } else fail('expected an object {…} as the next record');
      } else if (state === 'comma') {
        if (c === 44) state = 'next';
        else if (c === 93) state = 'end';
        else fail("expected ',' or ']' after a record");
      } else {
        fail('unexpected text after the closing ]');
      }
    }
    if (state === 'in') {
      const rest = chunk.slice(start);
      partsLength += rest.length;
      if (partsLength > maxElementChars) tooLarge(source, elementLine);
      parts.push(rest);
    }
  }
  if ((state as string) !== 'end') fail(state === 'start' ? 'the file is empty' : 'the array is not closed with ]');
}

function tooLarge(source: string, line: number): never {
  throw new InputError('RECORD_TOO_LARGE', `${source}:${line}: a record is longer than 1,048,576 characters`, 'no real record is this large: check the file');
}

/** Deeper than any real record: past this, a value is refused before anything walks it. */
export const MAX_DEPTH = 32;

/** Whether a JSON text nests objects and arrays deeper than `limit` (strings skipped), without parsing it. */
export function tooDeep(text: string, limit = MAX_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string, escapes included.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Rejects keys that could reach prototype machinery, at any depth, as JSON.parse decoded them — so an
 * escaped `"\u005f_proto__"` is caught too. Cheap when no such word and no escape is in the text.
 */
function checkKeys(source: string, line: number, text: string, value: unknown): void {
  if (!text.includes('__proto__') && !text.includes('constructor') && !text.includes('prototype') && !text.includes('\\u')) return;
  // Iterative: the depth was bounded before parsing, but a walk should not lean on that.
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) {
        throw new InputError('FORBIDDEN_KEY', `${source}:${line}: key '${key}' is not allowed`, 'remove that key from the record');
      }
      stack.push((v as Record<string, unknown>)[key]);
    }
  }
}

/** Parses one element's text into a plain object, naming the line when it is not one. */
export function parseObject(source: string, line: number, text: string): Record<string, unknown> {
  if (tooDeep(text)) {
    throw new InputError(
      'JSON_TOO_DEEP',
      `${source}:${line}: the record nests objects or arrays more than ${MAX_DEPTH} levels deep`,
      'no real record is nested this deep: check how the file was made',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError('JSON_SYNTAX', `${source}:${line}: ${(err as Error).message}`, 'fix the JSON of that record');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError('NOT_AN_OBJECT', `${source}:${line}: a record must be a JSON object {…}`, 'fix that record');
  }
  checkKeys(source, line, text, value);
  return value as Record<string, unknown>;
}

function toRaw(line: number, text: string, obj: Record<string, unknown>): RawRecord {
  const repeated = repeatedKeyIssue(text, line);
  const raw = { line, columns: Object.keys(obj), cells: Object.values(obj) };
  return repeated ? { ...raw, issues: [repeated] } : raw;
}

export async function* readJson(text: AsyncIterable<string>, source: string): AsyncGenerator<RawRecord> {
  for await (const el of jsonArrayElements(text, source)) yield toRaw(el.line, el.text, parseObject(source, el.line, el.text));
}

export async function* readNdjson(text: AsyncIterable<string>, source: string): AsyncGenerator<RawRecord> {
  let rest = '';
  let line = 0;
  const one = (raw: string): RawRecord | undefined => {
    line++;
    const s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (s.trim() === '') return undefined;
    if (s.length > MAX_RECORD_CHARS) tooLarge(source, line);
    return toRaw(line, s, parseObject(source, line, s));
  };
  for await (const chunk of text) {
    rest += chunk;
    let from = 0;
    for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n', from)) {
      const rec = one(rest.slice(from, nl));
      from = nl + 1;
      if (rec) yield rec;
    }
    rest = rest.slice(from);
    if (rest.length > MAX_RECORD_CHARS) tooLarge(source, line + 1);
  }
  const last = one(rest);
  if (last) yield last;
}
