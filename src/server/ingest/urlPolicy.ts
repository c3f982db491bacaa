/**
 * Where a `url` data source may be fetched from. The service runs on the user's machine, so a URL
 * pointing at loopback, the link-local cloud metadata address or the private network would turn
 * it into a proxy into places the caller cannot reach. Addresses are checked after DNS resolution
 * (so a name that resolves to 127.0.0.1 is caught) and again on every redirect, since each hop
 * goes through the same lookup. Private networks (and loopback) can be allowed by an opt-in;
 * link-local, multicast, unspecified and broadcast addresses never are.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export interface UrlPolicy {
  /** Allow private ranges and loopback (a user's own intranet or machine). Off by default. */
  allowPrivateNetworks: boolean;
}

function list(ranges: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const b = new BlockList();
  for (const [net, prefix, type] of ranges) b.addSubnet(net, prefix, type);
  return b;
}

const ALWAYS = list([
  ['0.0.0.0', 8, 'ipv4'], ['169.254.0.0', 16, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'],
  ['::', 128, 'ipv6'], ['fe80::', 10, 'ipv6'], ['ff00::', 8, 'ipv6'],
]);
const PRIVATE = list([
  ['127.0.0.0', 8, 'ipv4'], ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'],
  ['::1', 128, 'ipv6'], ['fc00::', 7, 'ipv6'],
]);

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad counts as two groups). */
function groupsOf(v6: string): number[] {
  let text = v6.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (p: string): number[] => (p === '' ? [] : p.split(':').map((g) => parseInt(g, 16)));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  return [...h, ...Array.from({ length: Math.max(0, 8 - h.length - t.length) }, () => 0), ...t];
}

/** An IPv4 address carried in IPv6 (mapped `::ffff:a.b.c.d` or compatible `::a.b.c.d`), or undefined. */
function embeddedV4(v6: string): string | undefined {
  const g = groupsOf(v6);
  if (g.length !== 8 || g.slice(0, 5).some((x) => x !== 0) || (g[5] !== 0 && g[5] !== 0xffff)) return undefined;
  const hi = g[6] ?? 0;
  const lo = g[7] ?? 0;
  if (g[5] === 0 && hi === 0) return undefined; // ::, ::1 and friends are IPv6 addresses in their own right
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why `address` may not be fetched under `policy`, or undefined when it may. */
export function refusal(address: string, policy: UrlPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedV4(address) : address;
  const [addr, type] = v4 !== undefined ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (ALWAYS.check(addr, type)) return `${address} is a link-local, multicast or reserved address`;
  if (!policy.allowPrivateNetworks && PRIVATE.check(addr, type)) return `${address} is on this machine or a private network (allow private networks in the settings to fetch from there)`;
  return undefined;
}

/** The host of a URL as an IP literal (brackets removed), or undefined for a name. */
export function literalHost(url: URL): string | undefined {
  const h = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(h) !== 0 ? h : undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves every address of the name and fails when any of them
 * is refused (a name answering both a public and a private address is not trusted either).
 */
export function guardedLookup(policy: UrlPolicy): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const bad = addresses.map((a) => refusal(a.address, policy)).find((r) => r !== undefined);
      if (bad !== undefined || addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(bad ?? `${hostname} has no address`);
        e.code = 'EREFUSEDADDRESS';
        return callback(e, '');
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
