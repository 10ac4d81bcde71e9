// Defence in depth for the token. No code path prints it; still, every line for a person and every
// document on stdout passes through redact(), so a service that echoes the token back in a message,
// or a bug that puts it in an error, still shows only ***. The secrets belong to one run (one call of
// the CLI's main): two runs in one process never share, or forget, each other's.

/** Every form a secret may take in a message: raw, JSON-escaped, URL-encoded (a Location header, a query). */
function forms(secret: string): string[] {
  const all = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), encodeURI(secret)]);
  try {
    all.add(new URLSearchParams({ t: secret }).toString().slice(2));
  } catch {
    /* not encodable: the raw form is enough */
  }
  return [...all];
}

export class Secrets {
  private readonly kept = new Set<string>();

  /**
   * Remembers a value that must never be shown. Tokens too short to be credentials are refused before
   * they get here (send/config.ts), so masking one never garbles ordinary words.
   */
  keep(value: string): void {
    this.kept.add(value);
  }

  /** The text with every kept secret, in any of its forms, replaced by ***. */
  readonly redact = (text: string): string => {
    let out = text;
    for (const secret of this.kept) for (const form of forms(secret)) out = out.split(form).join('***');
    return out;
  };
}
