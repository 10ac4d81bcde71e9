// The request body, produced in chunks from the per-record JSON: never one giant string, so bodies
// larger than V8's string limit work, and every attempt sends the same bytes.
import { createHash } from 'node:crypto';

const CHUNK = 256 * 1024;

export function* payloadChunks(bodies: readonly string[]): Generator<Buffer> {
  let parts: string[] = ['['];
  let size = 1;
  for (let i = 0; i < bodies.length; i++) {
    const body = i === 0 ? bodies[i]! : ',' + bodies[i]!;
    parts.push(body);
    size += body.length;
    if (size >= CHUNK) {
      yield Buffer.from(parts.join(''), 'utf8');
      parts = [];
      size = 0;
    }
  }
  parts.push(']');
  yield Buffer.from(parts.join(''), 'utf8');
}

export function payloadLength(bodies: readonly string[]): number {
  let n = 2 + Math.max(0, bodies.length - 1);
  for (const body of bodies) n += Buffer.byteLength(body, 'utf8');
  return n;
}

export function payloadSha256(bodies: readonly string[]): string {
  const hash = createHash('sha256');
  for (const chunk of payloadChunks(bodies)) hash.update(chunk);
  return hash.digest('hex');
}
