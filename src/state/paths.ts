// Where the tool keeps what it remembers between runs, and how each file is named. Pure apart from
// reading the environment it is given: the file system is touched elsewhere.
import { resolve } from 'node:path';
import { stateHome } from '../files/app-dirs.js';

/** A PostgreSQL URL rather than a directory. */
export function isStoreUrl(spec: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(spec);
}

/** --state DIR, else the system's state folder (files/app-dirs.ts). */
export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (flag !== undefined && flag !== '') return resolve(flag);
  return stateHome(env, platform);
}

/** The base URL as one string: scheme, host, port (only when not the default) and path prefix. */
export function normaliseBaseUrl(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * A file-name-safe name for a service: its host (and port) for people to recognise, plus a hash of the
 * whole normalised URL so that two path prefixes on one host, or hosts that sanitise alike, never share
 * a snapshot.
 */
export function siteName(url: URL): string {
  const host = url.host
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '_')
    .replace(/^\.+/, '_');
  // node:crypto loads here, on first use, not with every start: a dry run without a base URL never needs it.
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(normaliseBaseUrl(url)).digest('hex').slice(0, 12);
  return `${host}-${hash}`;
}
