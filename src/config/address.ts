// Protection follows the address, not the name (docs/targets.md, "An address is its target"): a run
// whose service address is a protected or approval-requiring target's address IS that target, wherever
// the address came from (--base-url, UPLOAD_BASE_URL, another target, a saved plan). Addresses are
// compared after normalising what does not change where the records go.
import type { Config, Target } from './schema.js';

/**
 * The address as compared: scheme and host in lower case (the URL parser also turns IDNs into punycode
 * and IPv4 spellings such as 0x7f.1 into 127.0.0.1), the host without a trailing dot, the port only
 * when it is not the scheme's default, the path without trailing slashes; user info, query and
 * fragment left out. Undefined for text that is not a URL.
 */
export function addressKey(address: string | URL): string | undefined {
  let url: URL;
  try {
    url = typeof address === 'string' ? new URL(address.trim()) : address;
  } catch {
    return undefined;
  }
  const host = unmapped(url.hostname.replace(/\.+$/, ''));
  const port = url.port ? `:${url.port}` : '';
  return `${url.protocol}//${host}${port}${url.pathname.replace(/\/+$/, '')}`;
}

/** An IPv4-mapped IPv6 address ([::ffff:7f00:1]) is the IPv4 address it maps (127.0.0.1). */
function unmapped(host: string): string {
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!m) return host;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether a target's address must not be reached without it: protected, or needing approvals. */
export function isGuarded(target: Target): boolean {
  return target.protected === true || (target.approvals ?? 0) > 0;
}

/** The guarded targets at an address (usually none or one). */
export function guardedAt(config: Config, address: string | URL): { name: string; target: Target }[] {
  const key = addressKey(address);
  if (key === undefined) return [];
  return Object.entries(config.targets)
    .filter(([, target]) => isGuarded(target) && addressKey(target.baseUrl) === key)
    .map(([name, target]) => ({ name, target }));
}
