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
  ['::1', 128, 'ipv6'], ['fc00::', 7, 'ipv6'], ['fec0::', 10, 'ipv6'], ['64:ff9b:1::', 48, 'ipv6'],
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

/** A 32-bit address from two 16-bit groups, as a dotted quad. */
function quadOf(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * The IPv4 addresses an IPv6 address carries, in every form a network may turn into IPv4 traffic:
 * mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, translated `::ffff:0:a.b.c.d` (SIIT), NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::` and Teredo (server, and the client's address
 * stored inverted). Each is checked as the IPv4 address it may become.
 */
function embeddedV4(v6: string): string[] {
  const g = groupsOf(v6);
  if (g.length !== 8 || g.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff)) return [];
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g5 === 0xffff) return [quadOf(g6, g7)]; // mapped
  if (zeros(0, 6) && g6 !== 0) return [quadOf(g6, g7)]; // compatible; ::, ::1 and friends are IPv6 addresses in their own right
  if (zeros(0, 4) && g4 === 0xffff && g5 === 0) return [quadOf(g6, g7)]; // translated
  if (g0 === 0x64 && g1 === 0xff9b && zeros(2, 6)) return [quadOf(g6, g7)]; // NAT64, well-known prefix
  if (g0 === 0x2002) return [quadOf(g1, g2)]; // 6to4
  if (g0 === 0x2001 && g1 === 0) return [quadOf(g2, g3), quadOf(~g6 & 0xffff, ~g7 & 0xffff)]; // Teredo
  return [];
}

/** Why `address` may not be fetched under `policy`, or undefined when it may. */
export function refusal(address: string, policy: UrlPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  // The address itself and, for IPv6, every IPv4 address it carries: each must pass.
  const forms: Array<[string, 'ipv4' | 'ipv6']> = family === 4 ? [[address, 'ipv4']] : [[address, 'ipv6'], ...embeddedV4(address).map((v4): [string, 'ipv4'] => [v4, 'ipv4'])];
  if (forms.some(([a, t]) => ALWAYS.check(a, t))) return `${address} is a link-local, multicast or reserved address`;
  if (!policy.allowPrivateNetworks && forms.some(([a, t]) => PRIVATE.check(a, t))) return `${address} is on this machine or a private network (allow private networks in the settings to fetch from there)`;
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
