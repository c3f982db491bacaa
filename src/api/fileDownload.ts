/**
 * Downloads a TABLE/IMAGE file the service linked to. The URL is untrusted and may point at
 * object storage: only http/https are fetched, the API key is never sent (the URL carries its own
 * authorisation, like a presigned URL), the size is bounded, and the file name is sanitised so a
 * hostile name can never write outside the target folder.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { undici } from './undiciLazy';
import { safeFileName } from '../shared/fileNames';

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Refuse files larger than this (default 512 MiB). */
  maxBytes?: number;
  /** Name to save under; defaults to the URL's last path segment. Always sanitised. */
  fileName?: string;
}

export interface DownloadedFile {
  path: string;
  bytes: number;
  contentType: string;
}

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** Where a URL points, without its query (which may hold a signature). */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

/** Fetches `url` into a temp file in `folder` and renames it into place once complete. */
export async function downloadFile(url: string, folder: string, opts: DownloadOptions = {}): Promise<DownloadedFile> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DownloadError('the file link is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DownloadError(`refusing to download from a ${parsed.protocol} link`);
  }
  const maxBytes = opts.maxBytes ?? 512 * 1024 * 1024;
  const res = await (await undici()).fetch(parsed, { signal: opts.signal, redirect: 'follow' });
  if (!res.ok || !res.body) {
    const hint = res.status === 403 || res.status === 404 ? ' (the link may have expired)' : '';
    throw new DownloadError(`download of ${describeUrl(url)} failed: HTTP ${res.status}${hint}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new DownloadError(`file is larger than ${maxBytes} bytes`);
  const segment = parsed.pathname.split('/').filter(Boolean).pop() ?? 'file';
  let fromUrl = segment;
  try {
    fromUrl = decodeURIComponent(segment);
  } catch {
    // Keep the raw segment: a malformed escape is still a usable (sanitised) name.
  }
  const name = safeFileName(opts.fileName ?? fromUrl);
  await mkdir(folder, { recursive: true });
  const target = join(folder, name);
  const temp = join(folder, `.${randomUUID()}.part`);
  let bytes = 0;
  const counted = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>).on('data', (c: Buffer) => {
    bytes += c.length;
    if (bytes > maxBytes) counted.destroy(new DownloadError(`file is larger than ${maxBytes} bytes`));
  });
  try {
    await pipeline(counted, createWriteStream(temp, { flags: 'wx' }), { signal: opts.signal });
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return { path: target, bytes, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
}
