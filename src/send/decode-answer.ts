// An answer's body as the service meant it: a proxy in front of the service (nginx with `gzip on`)
// may compress it whatever the request said. The cap on an answer counts the decoded bytes, so a
// small compressed answer cannot unpack into a large one.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

export type Decoded = { readonly bytes: Buffer; readonly truncated: boolean } | { readonly unreadable: string };

type Decoder = (bytes: Buffer, options: ZlibOptions) => Buffer;

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  br: brotliDecompressSync,
  // "deflate" is meant to be zlib-wrapped; some servers send it raw.
  deflate: (bytes, options) => {
    try {
      return inflateSync(bytes, options);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw err;
      return inflateRawSync(bytes, options);
    }
  },
};

/** Undoes each coding of `Content-Encoding`, last applied first; `max` bounds every decoded step. */
export function decodeAnswer(raw: Buffer, contentEncoding: string | string[] | undefined, max: number): Decoded {
  const codings = [contentEncoding ?? []]
    .flat()
    .join(',')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let bytes = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { unreadable: `it is encoded as '${coding}', which this tool cannot decode` };
    try {
      bytes = decode(bytes, { maxOutputLength: max + 1 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { bytes: Buffer.alloc(0), truncated: true };
      return { unreadable: `it says it is ${coding}-encoded but does not decode (${(err as Error).message})` };
    }
  }
  return bytes.length > max ? { bytes: bytes.subarray(0, max), truncated: true } : { bytes, truncated: false };
}
