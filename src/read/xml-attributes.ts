// The attributes of one XML start tag, as the workbook readers (./xlsx-hidden.ts, ./ods-hidden.ts)
// need them: no full XML parser, since only a few attributes of a few tags are read.
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTRIBUTE)) out.set(m[1]!, m[2] ?? m[3] ?? '');
  return out;
}

/** The five named entities and numeric references. */
export const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === 'lt'
      ? '<'
      : e === 'gt'
        ? '>'
        : e === 'quot'
          ? '"'
          : e === 'apos'
            ? "'"
            : e === 'amp'
              ? '&'
              : String.fromCodePoint(Number(e.startsWith('#x') ? `0x${e.slice(2)}` : e.slice(1))),
  );
