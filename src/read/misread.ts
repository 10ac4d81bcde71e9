// Is one text another read in the wrong encoding? `Eglë Stankevièiûtë` is `Eglė Stankevičiūtė`'s
// windows-1257 bytes read as windows-1252; `JosÃ©` is `José`'s UTF-8 bytes read as windows-1252. Put
// back into the bytes of the page that read it and decoded in another page (or UTF-8), the new text
// gives the recorded one exactly. No model, no threshold: a test on the two texts alone.
import { isUtf8 } from 'node:buffer';
import { CODE_PAGES, singleByteDecoder } from './code-pages.js';

interface Page {
  readonly label: string;
  /** character → byte, for the characters beyond ASCII this page has. */
  readonly encode: ReadonlyMap<string, number>;
  /** byte → character, for bytes 0x80–0xFF. */
  readonly decode: readonly string[];
}

let pages: readonly Page[] | undefined;

function tables(): readonly Page[] {
  pages ??= CODE_PAGES.map((label) => {
    const decoder = singleByteDecoder(label);
    const decode: string[] = [];
    const encode = new Map<string, number>();
    for (let b = 0x80; b <= 0xff; b++) {
      const ch = decoder.decode(Uint8Array.of(b));
      decode.push(ch);
      if (ch.length === 1 && !encode.has(ch)) encode.set(ch, b);
    }
    return { label, encode, decode };
  });
  return pages;
}

/** The bytes of `text` in `page`, or undefined when some character has no byte there. */
function bytesIn(text: string, page: Page): Uint8Array | undefined {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const b = code < 0x80 ? code : page.encode.get(text[i]!);
    if (b === undefined) return undefined;
    out[i] = b;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8');

/**
 * `after` is `before` read in a wrong single-byte page: the encoding that reads those bytes as
 * `before` (another code page, or `utf-8`); undefined when it is not.
 */
export function misreadFrom(before: string, after: string): string | undefined {
  if (before === after || !/[\u0080-\uffff]/.test(after)) return undefined;
  const all = tables();
  for (const page of all) {
    const bytes = bytesIn(after, page);
    if (!bytes) continue;
    // UTF-8 read as single bytes: the bytes are valid UTF-8 and spell the recorded text.
    if (bytes.length > before.length && isUtf8(bytes) && utf8.decode(bytes) === before) return 'utf-8';
    if (bytes.length !== before.length) continue;
    for (const other of all) {
      if (other !== page && sameText(bytes, other, before)) return other.label;
    }
  }
  return undefined;
}

function sameText(bytes: Uint8Array, page: Page, text: string): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80 ? text.charCodeAt(i) !== b : page.decode[b - 0x80] !== text[i]) return false;
  }
  return true;
}
