/**
 * Request gatekeeping: the Host check that defeats DNS rebinding (a web page whose domain resolves
 * to 127.0.0.1 still sends its own name as Host), and the constant-time API key check.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '[::1]') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * True when the Host header names a loopback address (127.0.0.0/8, localhost, [::1]) or the
 * explicitly configured host, with no port or the service's own port.
 */
export function isAllowedHost(hostHeader: string | undefined, port: number, configuredHost: string): boolean {
  if (hostHeader === undefined || hostHeader === '' || hostHeader.length > 300) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(hostHeader);
  if (!m) return false;
  const name = m[1] as string;
  if (m[2] !== undefined && Number(m[2]) !== port) return false;
  if (isLoopbackName(name)) return true;
  const configured = configuredHost.includes(':') && !configuredHost.startsWith('[') ? `[${configuredHost}]` : configuredHost;
  const wildcard = configuredHost === '0.0.0.0' || configuredHost === '::';
  return !wildcard && name.toLowerCase() === configured.toLowerCase();
}

/** Compares keys in constant time; hashing first makes the comparison independent of length. */
export function keyMatches(given: string | string[] | undefined, expectedDigest: Buffer): boolean {
  if (typeof given !== 'string' || given === '') return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), expectedDigest);
}

export function keyDigest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
