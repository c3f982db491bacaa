/**
 * Downloads a `url` data source to disk: http/https only, never to loopback, link-local or private
 * addresses unless allowed (urlPolicy.ts, checked after DNS and on every redirect), credentials
 * never sent, redirects bounded, size bounded while streaming, with an idle and an overall timeout. Failures are
 * {@link DownloadError}s whose message is shown to the user as the source's `error`.
 */
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { guardedLookup, literalHost, refusal, type UrlPolicy } from './urlPolicy';

export class DownloadError extends Error {
  constructor(message: string) {
    super(`download failed: ${message}`);
    this.name = 'DownloadError';
  }
}

export interface DownloadOptions {
  maxBytes: number;
  maxRedirects?: number;
  /** No bytes for this long aborts the download. */
  idleTimeoutMs?: number;
  /** The whole download must finish within this time. */
  totalTimeoutMs?: number;
  signal: AbortSignal;
  /** Which addresses may be fetched (default: public ones only). */
  policy?: UrlPolicy;
}

function get(url: URL, signal: AbortSignal, idleMs: number, policy: UrlPolicy): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const fn = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = fn(url, { method: 'GET', signal, lookup: guardedLookup(policy), headers: { 'user-agent': 'team-data-local-service', accept: '*/*' } });
    req.setTimeout(idleMs, () => req.destroy(new DownloadError(`no response within ${Math.round(idleMs / 1000)} s`)));
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function describe(e: unknown): string {
  if (e instanceof DownloadError) return e.message;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EREFUSEDADDRESS') return new DownloadError(`not fetched: ${(e as Error).message}`).message;
  return new DownloadError(code ? `could not connect (${code})` : 'the connection failed').message;
}

/** Downloads `url` to `dest`; returns the size in bytes. Removes a partial file on failure. */
export async function downloadToFile(url: string, dest: string, o: DownloadOptions): Promise<number> {
  const maxRedirects = o.maxRedirects ?? 5;
  const idleMs = o.idleTimeoutMs ?? 30_000;
  const signal = AbortSignal.any([o.signal, AbortSignal.timeout(o.totalTimeoutMs ?? 60 * 60_000)]);
  const policy = o.policy ?? { allowPrivateNetworks: false };
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') {
        throw new DownloadError('only http and https URLs are supported');
      }
      // Credentials in a URL are never sent (nor carried to where a redirect points).
      current.username = '';
      current.password = '';
      const literal = literalHost(current);
      const refused = literal === undefined ? undefined : refusal(literal, policy);
      if (refused !== undefined) throw new DownloadError(`not fetched: ${refused}`);
      const res = await get(current, signal, idleMs, policy);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location !== undefined) {
        res.resume();
        if (hop >= maxRedirects) throw new DownloadError(`more than ${maxRedirects} redirects`);
        current = new URL(res.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new DownloadError(`the server answered HTTP ${status}`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) {
        res.destroy();
        throw new DownloadError(`the file is larger than the ${o.maxBytes}-byte limit`);
      }
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (size > o.maxBytes) cb(new DownloadError(`the file is larger than the ${o.maxBytes}-byte limit`));
          else cb(null, chunk);
        },
      });
      res.setTimeout(idleMs, () => res.destroy(new DownloadError(`no data for ${Math.round(idleMs / 1000)} s`)));
      await pipeline(res, counter, createWriteStream(dest, { mode: 0o600 }), { signal });
      if (size === 0) throw new DownloadError('the file is empty');
      return size;
    }
  } catch (e) {
    await unlink(dest).catch(() => undefined);
    if (o.signal.aborted) throw e;
    if (signal.aborted) throw new DownloadError('timed out');
    throw new DownloadError(describe(e).replace(/^download failed: /, ''));
  }
}
