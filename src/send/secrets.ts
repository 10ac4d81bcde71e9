// Defence in depth for the token and every password. No code path prints them; still, every line for
// a person and every document on stdout passes through redact(), so a service that echoes the token
// back in a message, or a bug that puts it in an error, still shows only ***. The secrets belong to
// one run (one call of the CLI's main): two runs in one process never share, or forget, each other's.

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

/**
 * `scheme://user:password@` in any text, whatever the scheme (a state URL, a proxy, a webhook): the
 * password is masked wherever a URL carries one, even one this run was never told about. Found from
 * each `://` with bounded look-behind and look-ahead, never by a pattern that could try every start
 * in a long word (a megabyte of a service's message would take minutes).
 */
const USERINFO = /^([^\s/?#@:"'<>\\]{0,256}):([^\s/?#@"'<>\\]{1,512})@/;
const SCHEME_END = /[a-z][a-z0-9+.-]{0,31}$/i;

/** Each URL password in `text`: where it starts and ends. */
function* urlPasswords(text: string): Generator<{ start: number; end: number; password: string }> {
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    if (!SCHEME_END.test(text.slice(Math.max(0, at - 32), at))) continue;
    const m = USERINFO.exec(text.slice(at + 3, at + 3 + 800));
    if (!m) continue;
    const start = at + 3 + m[1]!.length + 1;
    yield { start, end: start + m[2]!.length, password: m[2]! };
  }
}

/**
 * A password shorter than this is masked only where it stands inside a URL: masking a short word
 * everywhere would garble ordinary text ("pg" in "pg_hba.conf"), and would tell where it occurs.
 */
const SHORTEST_BARE = 6;

/** The environment variables that may carry a password or a URL with one. */
const SECRET_VARIABLES = ['PGPASSWORD', 'UPLOAD_STATE', 'DATABASE_URL', 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

export class Secrets {
  private readonly kept = new Set<string>();

  /**
   * Remembers a value that must never be shown. Tokens too short to be credentials are refused before
   * they get here (send/config.ts), so masking one never garbles ordinary words.
   */
  keep(value: string): void {
    this.kept.add(value);
  }

  /**
   * Remembers the password of every URL in these texts (a flag's value, a setting, a variable), so it
   * is masked in every form, also where it appears without its URL (a driver's message, an encoded
   * query). One call at the start of a run and one once its settings are resolved cover every source.
   */
  keepPasswordsIn(texts: Iterable<unknown>): void {
    for (const text of texts) {
      if (typeof text !== 'string') continue;
      for (const { password: raw } of urlPasswords(text)) {
        let decoded = raw;
        try {
          decoded = decodeURIComponent(raw);
        } catch {
          /* a stray % : the raw form is what a message would show */
        }
        for (const form of new Set([raw, decoded])) if (form.length >= SHORTEST_BARE && form !== '***') this.kept.add(form);
      }
    }
  }

  /** The passwords a run's environment carries: PGPASSWORD itself, and those of URLs in the variables that hold one. */
  keepFromEnvironment(env: NodeJS.ProcessEnv): void {
    const password = env.PGPASSWORD;
    if (password !== undefined && password.length >= SHORTEST_BARE) this.kept.add(password);
    this.keepPasswordsIn(SECRET_VARIABLES.map((name) => env[name]));
  }

  /** The text with every kept secret, in any of its forms, and every URL's password replaced by ***. */
  readonly redact = (text: string): string => {
    let out = text;
    for (const secret of this.kept) for (const form of forms(secret)) out = out.split(form).join('***');
    let masked = '';
    let from = 0;
    for (const { start, end, password } of urlPasswords(out)) {
      if (password === '***') continue;
      masked += `${out.slice(from, start)}***`;
      from = end;
    }
    return from === 0 ? out : masked + out.slice(from);
  };
}
