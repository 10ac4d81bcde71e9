// What a service says when it refuses: its `message`, and the `errors[]` many services add (`{"index":
// 1, "field": "email", "message": "e-mail already in use"}`). They are the only lines that tell the
// person what to fix, so they are kept — bounded (a service can answer a megabyte of them) and made
// plain text: control and bidirectional characters are shown as escapes, so an answer can never
// move the cursor, recolour a terminal or reorder a line.

import type { ServiceReason, ServiceSaid } from '../errors.js';

export type { ServiceReason, ServiceSaid } from '../errors.js';

export const MAX_REASONS = 20;
const MAX_TEXT = 300;

/** Plain, bounded text: C0/C1 controls, DEL and bidirectional controls become \u escapes. */
export function plainText(text: string, max = MAX_TEXT): string {
  const shown = text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shown.length > max ? `${shown.slice(0, max)}… (${shown.length - max} more characters)` : shown;
}

/** The service's reasons in an answer's text; undefined when it is not a JSON object saying any. */
export function serviceSaid(text: string): ServiceSaid | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  const list = Array.isArray(errors) ? errors : [];
  const reasons = list.slice(0, MAX_REASONS).flatMap((e): ServiceReason[] => {
    if (typeof e === 'string') return [{ index: null, field: null, message: plainText(e), line: null, key: null }];
    if (e === null || typeof e !== 'object') return [];
    const { index, field, path, message: said } = e as Record<string, unknown>;
    const where = typeof field === 'string' ? field : typeof path === 'string' ? path : null;
    return [
      {
        index: typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 ? index : null,
        field: where === null || where === '' ? null : plainText(where, 100),
        message: typeof said === 'string' ? plainText(said) : '(no message)',
        line: null,
        key: null,
      },
    ];
  });
  if (typeof message !== 'string' && reasons.length === 0) return undefined;
  return { message: typeof message === 'string' ? plainText(message, 1000) : null, errors: reasons, errorCount: list.length };
}

/** "line 3, key "E2", email: e-mail already in use by another account" */
export function reasonLine(r: ServiceReason): string {
  const where = [
    r.line !== null ? `line ${r.line}` : r.index !== null ? `record ${r.index + 1} sent` : null,
    r.key !== null ? `key ${JSON.stringify(r.key)}` : null,
    r.field,
  ].filter(Boolean);
  return `${where.length ? `${where.join(', ')}: ` : ''}${r.message}`;
}
