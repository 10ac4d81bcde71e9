// Protection follows the address, not the name (docs/targets.md, "An address is its target"): a run
// whose service address is a protected or approval-requiring target's address IS that target, wherever
// the address came from (--base-url, UPLOAD_BASE_URL, another target, a saved plan). Addresses are
// compared after normalising what does not change where the records go — here, and nowhere else: the
// conflict between two given addresses (./target.ts) asks the same question.
import type { Config, Target } from './schema.js';

/**
 * The address as compared: scheme and host in lower case (the URL parser also turns IDNs into punycode
 * and IPv4 spellings such as 0x7f.1 into 127.0.0.1), the host without a trailing dot, the port only
 * when it is not the scheme's default, the path without trailing slashes; user info, query and
 * fragment left out. Undefined for text that is not a URL.
 */
export function addressKey(address: string | URL): string | undefined {
  const parts = partsOf(address);
  return parts && `${parts.scheme}//${parts.host}${parts.rest}`;
}

/** An address in the parts compared: the host apart, so that a name and an IP literal can be matched. */
interface Parts {
  readonly scheme: string;
  readonly host: string;
  /** The port (when not the scheme's default) and the path. */
  readonly rest: string;
}

function partsOf(address: string | URL): Parts | undefined {
  let url: URL;
  try {
    url = typeof address === 'string' ? new URL(address.trim()) : address;
  } catch {
    return undefined;
  }
  const host = unmapped(url.hostname.replace(/\.+$/, ''));
  const port = url.port ? `:${url.port}` : '';
  return { scheme: url.protocol, host, rest: `${port}${url.pathname.replace(/\/+$/, '')}` };
}

/** An IP literal as the URL parser writes it (IPv4 dotted, IPv6 in brackets), not a name. */
const isIpLiteral = (host: string) => host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);

/** The IP addresses a host name resolves to, as URL hosts (`127.0.0.1`, `[::1]`); none when it does not resolve. */
export type Resolve = (name: string) => Promise<readonly string[]>;

/**
 * Resolves each name once per run (the system's resolver, node:dns lookup: /etc/hosts, then DNS), so
 * that every comparison in one run sees the same answer.
 */
export function resolverForRun(lookup?: (name: string) => Promise<readonly { address: string }[]>): Resolve {
  const seen = new Map<string, Promise<readonly string[]>>();
  const ask = lookup ?? (async (name: string) => (await import('node:dns/promises')).lookup(name, { all: true, verbatim: true }));
  return (name) => {
    let found = seen.get(name);
    if (!found) {
      found = ask(name).then(
        (all) => all.map(({ address }) => unmapped(address.includes(':') ? new URL(`http://[${address}]`).hostname : address)),
        // A name that does not resolve matches no IP literal: said in docs/targets.md.
        () => [],
      );
      seen.set(name, found);
    }
    return found;
  };
}

/**
 * Whether two addresses are one service: the same key (addressKey), or — same scheme, port and path —
 * a host name and an IP literal the name resolves to. Two names are compared as names (one server may
 * host several services under several names), and two IP literals as themselves.
 */
export async function sameService(a: string | URL, b: string | URL, resolve: Resolve): Promise<boolean> {
  const [pa, pb] = [partsOf(a), partsOf(b)];
  if (!pa || !pb || pa.scheme !== pb.scheme || pa.rest !== pb.rest) return false;
  if (pa.host === pb.host) return true;
  if (isIpLiteral(pa.host) === isIpLiteral(pb.host)) return false;
  const [name, ip] = isIpLiteral(pa.host) ? [pb.host, pa.host] : [pa.host, pb.host];
  return (await resolve(name)).includes(ip);
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
export async function guardedAt(config: Config, address: string | URL, resolve: Resolve): Promise<{ name: string; target: Target }[]> {
  const guarded = Object.entries(config.targets).filter(([, target]) => isGuarded(target));
  const at = await Promise.all(guarded.map(async ([, target]) => sameService(target.baseUrl, address, resolve)));
  return guarded.filter((_, i) => at[i]).map(([name, target]) => ({ name, target }));
}
