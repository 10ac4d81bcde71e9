// The sandbox's body reader against a plain model (JSON.parse of the whole body, zod per element, Maps
// for repeats): a compact body is cut at `},{` and parsed a batch at a time, kept as sent when it is
// canonical, and its repeats are found at the end by sorted hashes. Whatever the body's style and
// however it is chunked, what is stored, or which errors are listed, must be what the model says.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_SCHEMAS } from '../../src/contract/schemas.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecords, type ParsedBody } from '../../src/sandbox/body.js';
import { atomicFile } from '../../src/files/atomic.js';
import { tempDir } from '../helpers/tmp.js';

const MAX_LISTED = 100;

function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return Readable.from(parts);
}

/**
 * Parses `text` as the sandbox does: in memory, or (toFile) written to a set's temp file as it is read,
 * which is committed when the body is accepted and removed when not.
 */
async function parse(text: string, size = 64 * 1024, toFile = false): Promise<{ ok: true; stored: string; count: number } | { ok: false; result: ParsedBody }> {
  const dir = tempDir().dir;
  const path = join(dir, 'teamMembers.json');
  const file = toFile ? await atomicFile(path) : undefined;
  const result = await parseRecords(chunked(text, size), 'team-members', file);
  if (!result.ok) {
    await file?.abort();
    expect(readdirSync(dir)).toEqual([]);
    return { ok: false, result };
  }
  await file?.commit();
  const stored = file ? readFileSync(path, 'utf8') : Buffer.concat(result.chunks).toString('utf8');
  if (file) expect(result.chunks).toEqual([]);
  else expect(existsSync(path)).toBe(false);
  return { ok: true, stored, count: result.count };
}

/** What the service must answer for a body that is a JSON array. */
function model(text: string): { ok: true; stored: string; count: number } | { ok: false; errors: { index: number; path: string; message: string }[] } {
  const values = JSON.parse(text) as unknown[];
  const errors: { index: number; path: string; message: string }[] = [];
  const records: unknown[] = [];
  const keys = new Set<string>();
  const emails = new Set<string>();
  values.forEach((value, index) => {
    const result = ACCEPTED_SCHEMAS['team-members'].safeParse(value);
    if (!result.success) {
      for (const zi of result.error.issues) errors.push({ index, path: zi.path.join('.'), message: zi.message });
      return;
    }
    const { employeeID, email } = result.data as { employeeID: string; email: string };
    if (keys.has(employeeID)) errors.push({ index, path: 'employeeID', message: `duplicate employeeID '${employeeID}'` });
    keys.add(employeeID);
    if (emails.has(email.toLowerCase())) errors.push({ index, path: 'email', message: `duplicate email '${email}'` });
    emails.add(email.toLowerCase());
    records.push(result.data);
  });
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_LISTED) };
  return { ok: true, stored: JSON.stringify(records), count: records.length };
}

const member = fc.record({
  employeeID: fc.constantFrom('E1', 'E2', 'E3', 'E"4', 'E},{5', 'E\\6', ''),
  email: fc.constantFrom('a@x.example', 'A@X.example', 'b@x.example', 'zoë@exämple.se', 'not an email'),
  name: fc.constantFrom('Ann', 'Zoë 李', 'a},{"employeeID":"E9"', 'tab\there', ' '),
  roleCode: fc.constantFrom(null, 'R1', 7),
  parentKey: fc.constantFrom(null, 'S1'),
});

/** The same array written as the CLI writes it, pretty, with every non-ASCII character escaped, or with a key twice. */
const style = fc.constantFrom('compact', 'pretty', 'escaped', 'key twice');
function write(records: readonly Record<string, unknown>[], how: string): string {
  if (how === 'pretty') return JSON.stringify(records, null, 2);
  const compact = JSON.stringify(records);
  if (how === 'escaped') return compact.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (how === 'key twice') return compact.replace(/\{"employeeID":("(?:[^"\\]|\\.)*")/g, '{"employeeID":$1,"employeeID":$1');
  return compact;
}

describe('the sandbox body reader', () => {
  it('stores or refuses exactly what the model does, in any style and any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(member, { maxLength: 40 }), style, fc.integer({ min: 1, max: 300 }), fc.boolean(), async (records, how, size, toFile) => {
        const text = write(records, how);
        const expected = model(text);
        const got = await parse(text, size, toFile);
        if (expected.ok) expect(got).toEqual(expected);
        else {
          expect(got.ok).toBe(false);
          if (!got.ok && !got.result.ok) expect(got.result.errors).toEqual(expected.errors);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a canonical body byte for byte, over many batches', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      employeeID: `E${i}`,
      email: `p${i}@exämple.se`,
      name: i % 7 ? `Person ${i}` : `Müller "Jo" ${i}`,
      roleCode: i % 3 ? String(i % 5) : null,
      parentKey: null,
    }));
    const text = JSON.stringify(records);
    expect(await parse(text, 4096)).toEqual({ ok: true, stored: text, count: 20_000 });
    expect(await parse(text, 4096, true)).toEqual({ ok: true, stored: text, count: 20_000 });
  });

  it('lists the first hundred problems by element, repeats found at the end among them', async () => {
    const records = Array.from({ length: 400 }, (_, i) => ({
      employeeID: `E${i % 150}`,
      email: `p${i}@x.example`,
      name: i >= 200 ? '' : 'N',
      roleCode: null,
      parentKey: null,
    }));
    const text = JSON.stringify(records);
    const got = await parse(text, 1000, true); // repeats read back from the temp file
    const expected = model(text);
    expect(got.ok).toBe(false);
    expect(expected.ok).toBe(false);
    if (!got.ok && !got.result.ok && !expected.ok) {
      expect(got.result.errors).toEqual(expected.errors);
      // 50 repeated keys (elements 150–199) come before the 200 empty names (200–399), which are found first.
      expect(got.result.message).toBe('250 problem(s) in the uploaded array; nothing was stored');
      expect(got.result.errors.slice(49, 51).map((e) => e.index)).toEqual([199, 200]);
    }
  });

  it.each([
    ['an empty array', '[]'],
    ['whitespace first', ' [{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null}]\n'],
    ['a newline after the array', '[{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null}]\n'],
  ])('reads %s', async (_what, text) => {
    expect(await parse(text, 7)).toEqual(model(text));
  });

  it.each([
    [
      'a cut body',
      '[{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null},{"employeeID":"E2"',
      'the body is not a JSON array of objects',
    ],
    [
      'text after the array',
      '[{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null}] x',
      'the body is not a JSON array of objects',
    ],
    [
      'a number for an element',
      '[{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null},5]',
      'the body is not a JSON array of objects',
    ],
    ['a bad element', '[{"employeeID":"E1","email":"a@x.example","name":"N","roleCode":null,"parentKey":null},{"a":tru}]', 'invalid JSON in element 1'],
  ])('refuses %s with the same words as before', async (_what, text, message) => {
    for (const size of [3, 1 << 16]) {
      const got = await parse(text, size);
      expect(got.ok).toBe(false);
      if (!got.ok && !got.result.ok) expect(got.result.message).toContain(message);
    }
  });
});
