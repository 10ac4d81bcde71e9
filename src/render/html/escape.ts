// Everything that reaches the review page from a file, a store or a service is text, never markup: these
// two functions are the only ways a value enters the page.

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function esc(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * JSON inside `<script type="application/json">`: a `</script>` or `<!--` in a value must not end the
 * element, so every `<` is written as \u003c (JSON.parse reads it back unchanged).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
