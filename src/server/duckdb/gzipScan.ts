/**
 * Gzip-compressed CSV, TSV and JSON (`sales.csv.gz`) are read by DuckDB itself, but inflated once
 * here first, in a stream, because DuckDB alone cannot be trusted with them:
 * - a gzip file cut short (an interrupted download or copy) is read by DuckDB without complaint,
 *   returning the rows before the cut, so the user would get wrong totals with no warning;
 * - a small file can inflate to gigabytes (a "gzip bomb"), and DuckDB has no way to bound that;
 * - the text checks (line lengths, nesting depth, encoding) need the inflated bytes.
 * Nothing is written to disk: the pass keeps only the first bytes (to sniff the encoding).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { IngestError } from '../engine';
import { formatBytes } from '../../shared/byteSize';

/** Inflated bytes a gzip file may hold when the store is given no limit (the service's default upload limit). */
export const DEFAULT_MAX_INFLATED_BYTES = 8 * 1024 ** 3;

const HEAD_BYTES = 64 * 1024;

export interface GzipScan {
  /** The first inflated bytes (up to 64 KiB), for sniffing. */
  head: Buffer;
  /** Inflated size. */
  bytes: number;
}

export interface GzipScanOptions {
  /** Inflated bytes beyond which the file is refused. */
  maxBytes: number;
  signal: AbortSignal;
  /** Sees every inflated chunk in order (at most 16 KiB each); may throw an IngestError to stop. */
  onChunk?: (chunk: Buffer) => void;
}

/** The user's reason for a zlib failure, or undefined when `err` is not one. */
export function zlibReason(err: unknown, fileName: string): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'Z_BUF_ERROR') return `${fileName} is cut short: its gzip data ends before the file does (was a download or copy interrupted?); get the complete file and add it again`;
  if (code === 'Z_DATA_ERROR' || code === 'Z_STREAM_ERROR' || code === 'Z_NEED_DICT') {
    return `${fileName} is damaged: its gzip data cannot be decompressed (${(err as Error).message}); get the file again and add it again`;
  }
  return undefined;
}

/** The reason given for a file that inflates beyond `maxBytes` (a "gzip bomb", or just too big). */
export function inflatedTooLarge(fileName: string, maxBytes: number): IngestError {
  return new IngestError(`${fileName} expands to more than ${formatBytes(maxBytes)} when decompressed, more than this service reads from one file; split it into smaller files`);
}

/**
 * Inflates `path` once and checks it on the way. Throws {@link IngestError} for a truncated or
 * corrupt stream, a file that inflates beyond `maxBytes`, or whatever `onChunk` refuses.
 */
export async function scanGzip(path: string, fileName: string, o: GzipScanOptions): Promise<GzipScan> {
  if ((await stat(path)).size === 0) throw new IngestError(`${fileName} is empty`);
  const heads: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done): void {
      bytes += chunk.length;
      if (bytes > o.maxBytes) {
        done(inflatedTooLarge(fileName, o.maxBytes));
        return;
      }
      if (headBytes < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headBytes);
        heads.push(Buffer.from(part));
        headBytes += part.length;
      }
      try {
        o.onChunk?.(chunk);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
  try {
    await pipeline(createReadStream(path), createGunzip(), sink, { signal: o.signal });
  } catch (err) {
    o.signal.throwIfAborted();
    if (err instanceof IngestError) throw err;
    const reason = zlibReason(err, fileName);
    if (reason !== undefined) throw new IngestError(reason);
    throw err;
  }
  return { head: Buffer.concat(heads), bytes };
}
