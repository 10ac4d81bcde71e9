// Defence in depth for the token. No code path prints it; still, every line for a person and every
// document on stdout passes through redact(), so a service that echoes the token back in a message,
// or a bug that puts it in an error, still shows only ***.

const secrets = new Set<string>();

/** Remembers a value that must never be shown. Very short values would mangle ordinary text. */
export function keepSecret(value: string): void {
  if (value.length >= 4) secrets.add(value);
}

/** The text with every kept secret, raw or JSON-escaped, replaced by ***. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    out = out.split(secret).join('***');
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join('***');
  }
  return out;
}
