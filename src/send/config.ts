// Where to send and with which token, checked before any connection is made.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { readSmall } from '../read/small-file.js';
import type { Stdin } from '../read/types.js';

export function isLoopback(hostname: string): boolean {
  // The spellings docs/targets.md matches: a trailing dot, and 127/8 mapped into IPv6 as the URL parser writes it.
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/**
 * The service's address as the settings resolved it (--base-url, a target's, UPLOAD_BASE_URL), named in
 * messages by where it came from: https, or plain http to a loopback host only.
 */
export function resolveBaseUrl(address: { readonly value: unknown; readonly from: string }, env: NodeJS.ProcessEnv): URL {
  const text = typeof address.value === 'string' ? address.value : undefined;
  const { from } = address;
  if (!text) {
    throw new UsageError('NO_BASE_URL', 'no service address given', 'pass --base-url https://… or set UPLOAD_BASE_URL');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError('BAD_BASE_URL', `${from} '${text}' is not a URL`, 'give the full address, e.g. https://scheduling.example.com');
  }
  if (url.username || url.password) {
    throw new UsageError('BAD_BASE_URL', `${from} must not carry a user name or password`, 'pass the token with UPLOAD_TOKEN or --token-file instead');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      'INSECURE_BASE_URL',
      `${from} uses plain http to ${url.hostname}: the token and the records would cross the network unencrypted`,
      'use https:// (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError('BAD_BASE_URL', `${from} '${text}' is not an http(s) address`, 'use https://…');
  }
  if (url.search || url.hash) {
    throw new UsageError('BAD_BASE_URL', `${from} must not have a query or fragment`, 'give only the scheme, host and optional path prefix');
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  checkExtraCaCerts(env);
  return url;
}

/**
 * Node reads NODE_EXTRA_CA_CERTS once at startup and, when the file is missing or holds no
 * certificate, only prints a warning; the upload would then fail later with a puzzling TLS error.
 * So a set but unusable path is a configuration error, named before any connection.
 */
export function checkExtraCaCerts(env: NodeJS.ProcessEnv): void {
  const path = env.NODE_EXTRA_CA_CERTS;
  if (!path) return;
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    throw new UsageError(
      'BAD_CA_FILE',
      `NODE_EXTRA_CA_CERTS names ${path}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      'point NODE_EXTRA_CA_CERTS at a readable PEM file with your private CA certificate, or unset it',
      { cause: err },
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(
      'BAD_CA_FILE',
      `NODE_EXTRA_CA_CERTS names ${path}, which holds no PEM certificate`,
      'the file must hold one or more "-----BEGIN CERTIFICATE-----" blocks',
    );
  }
}

/** The endpoint for a kind: the base URL's path prefix kept, the interface's path appended. */
export function endpoint(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}

export interface Token {
  readonly value: string;
  /** Where it came from, for messages: never the value itself. */
  readonly from: string;
}

export interface TokenOptions {
  /** The variable the token is read from: the settings resolver gives it, its default included. */
  readonly tokenEnv: string;
  readonly tokenFile?: string | undefined;
}

export async function resolveToken(options: TokenOptions, env: NodeJS.ProcessEnv, stdin: Stdin): Promise<Token> {
  if (options.tokenFile !== undefined) {
    const from = options.tokenFile === '-' ? 'standard input' : `the file ${options.tokenFile}`;
    let bytes: Buffer;
    try {
      bytes = await readSmall(options.tokenFile, '--token-file', MAX_TOKEN_FILE, stdin);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(
        'TOKEN_FILE_UNREADABLE',
        `cannot read the token from ${from}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
        'check --token-file',
        { cause: err },
      );
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new UsageError('BAD_TOKEN', `the token in ${from} is not valid UTF-8 text`, 'check --token-file: it must hold the token alone, as text');
    }
    return checkToken(text.replace(/\r?\n$/, ''), from, '--token-file');
  }
  const name = options.tokenEnv;
  const value = env[name];
  if (value === undefined || value === '') {
    throw new UsageError(
      'NO_TOKEN',
      `no access token: the environment variable ${name} is ${value === undefined ? 'not set' : 'empty'}`,
      `set ${name}, or pass --token-file PATH (or --token-file - to read it from standard input)`,
    );
  }
  return checkToken(value, `the environment variable ${name}`, name);
}

function checkToken(value: string, from: string, fix: string): Token {
  if (value.trim() === '') throw new UsageError('BAD_TOKEN', `the access token from ${from} is empty`, `put the token in ${fix}`);
  if (/[\r\n]/.test(value)) {
    throw new UsageError('BAD_TOKEN', `the access token from ${from} spans more than one line`, `${fix} must hold the token alone on one line`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(value)) throw new UsageError('BAD_TOKEN', `the access token from ${from} holds control characters`, `check ${fix}`);
  const token = value.trim();
  // A bearer token travels in an HTTP header: visible ASCII only. Anything else would fail as a
  // "network error" after the lock and the audit, or be sent mangled.
  const bad = /[^\x21-\x7e]/.exec(token);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new UsageError(
      'BAD_TOKEN',
      `the access token from ${from} holds a character that cannot be sent in an HTTP header (U+${code} at position ${bad.index + 1})`,
      `check ${fix}: a token is letters, digits and punctuation, without spaces`,
    );
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(
      'BAD_TOKEN',
      `the access token from ${from} is ${token.length} characters long, too short to be a real credential`,
      `check ${fix}: access tokens are at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  return { value: token, from };
}

/** Shorter than this is no credential (and masking it in messages would garble ordinary words). */
export const MIN_TOKEN_LENGTH = 8;
const MAX_TOKEN_FILE = 64 * 1024;
