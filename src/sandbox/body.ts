// An upload body, parsed as it streams in: the whole array validated against the shared contract
// (and for unique keys) before anything is stored; memory for one record's text at a time.
import type { IncomingMessage } from 'node:http';
import { KINDS, type Kind } from '../contract/kinds.js';
import { ACCEPTS } from '../contract/fast.js';
import { ACCEPTED_SCHEMAS } from '../contract/schemas.js';
import { UploadError } from '../errors.js';
import { decodeText } from '../read/decode.js';
import { jsonArrayElements } from '../read/json.js';

export class TooLarge extends Error {}

export interface BodyError {
  readonly index: number;
  readonly path: string;
  readonly message: string;
}

export type ParsedBody = { readonly ok: true; readonly records: string[] } | { readonly ok: false; readonly message: string; readonly errors: BodyError[] };

const MAX_LISTED = 100;

async function* limited(req: IncomingMessage, max: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of req) {
    seen += (chunk as Buffer).length;
    if (seen > max) throw new TooLarge();
    yield chunk as Buffer;
  }
}

export async function parseBody(req: IncomingMessage, kind: Kind, maxBody: number): Promise<ParsedBody> {
  const schema = ACCEPTED_SCHEMAS[kind];
  const keyField = KINDS[kind].keyField;
  const accepts = ACCEPTS[kind];
  const records: string[] = [];
  const errors: BodyError[] = [];
  let invalid = 0;
  const keys = new Set<string>();
  const emails = new Set<string>();
  const fail = (index: number, path: string, message: string) => {
    invalid++;
    if (errors.length < MAX_LISTED) errors.push({ index, path, message });
  };
  let index = 0;
  try {
    const text = decodeText(limited(req, maxBody), 'utf-8', 'body');
    for await (const el of jsonArrayElements(text, 'body', Infinity)) {
      const i = index++;
      let value: unknown;
      try {
        value = JSON.parse(el.text);
      } catch (err) {
        return { ok: false, message: `invalid JSON in element ${i}: ${(err as Error).message}`, errors: [] };
      }
      // The fast check accepts what the contract accepts (a property test holds it to zod); zod judges,
      // and words, everything else.
      let record: Record<string, unknown>;
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && accepts(value as Record<string, unknown>))
        record = value as Record<string, unknown>;
      else {
        const result = schema.safeParse(value);
        if (!result.success) {
          for (const zi of result.error.issues) fail(i, zi.path.join('.'), zi.message);
          continue;
        }
        record = result.data;
      }
      const key = record[keyField] as string;
      if (keys.has(key)) fail(i, keyField, `duplicate ${keyField} '${key}'`);
      keys.add(key);
      if (kind === 'team-members') {
        const email = (record.email as string).toLowerCase();
        if (emails.has(email)) fail(i, 'email', `duplicate email '${record.email as string}'`);
        emails.add(email);
      }
      if (invalid === 0) records.push(JSON.stringify(record));
    }
  } catch (err) {
    if (err instanceof TooLarge) throw err;
    if (err instanceof UploadError)
      return { ok: false, message: `the body is not a JSON array of objects: ${err.message.replace(/^body:\d+: /, '')}`, errors: [] };
    throw err;
  }
  if (invalid > 0) return { ok: false, message: `${invalid} problem(s) in the uploaded array; nothing was stored`, errors };
  return { ok: true, records };
}
