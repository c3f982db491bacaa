/**
 * A `multipart/form-data` body with one file part, streamed from disk. Memory stays constant
 * whatever the file size: only one read chunk is in flight, and the exact Content-Length is known
 * up front (size of the file plus the two small framing strings), which proxies and object stores
 * in front of the real service expect.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { TeamDataError } from './errors';
import type { RawBody } from './transport';

const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.md': 'text/markdown',
  '.mdx': 'text/markdown',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.pdf': 'application/pdf',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function contentTypeFor(extension: string): string {
  return CONTENT_TYPES[extension.toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Quotes a parameter value the way browsers do for form-data (WHATWG HTML): `"`, CR and LF are
 * percent-encoded, everything else (including non-ASCII, as UTF-8) is sent as is.
 */
export function quoteFormValue(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

export interface FilePart {
  path: string;
  /** Size in bytes at the time of the check; the upload fails if the file changes meanwhile. */
  size: number;
  fieldName: string;
  fileName: string;
  contentType: string;
}

/** Bytes of the file handed to the connection so far, and the file size. */
export type ProgressListener = (sentBytes: number, totalBytes: number) => void;

/**
 * How many file bytes one read yields. Each read is a round trip to libuv's thread pool and each
 * chunk a separate socket write, so per-chunk costs dominate: 1 MiB chunks took a 1 GB upload's
 * client CPU from about 2.5 s to 1.4 s against 256 KiB ones, and a few in flight stay far below
 * the memory budget.
 */
const READ_CHUNK = 1024 * 1024;

/**
 * The body of one attempt. `activity` is called per chunk so the transport's timeout measures
 * stalls rather than the whole upload.
 */
export function multipartBody(part: FilePart, onProgress: ProgressListener | undefined, activity: () => void): RawBody {
  const boundary = `----TeamDataBoundary${randomBytes(16).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${quoteFormValue(part.fieldName)}"; filename="${quoteFormValue(part.fileName)}"\r\n` +
      `Content-Type: ${part.contentType}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');

  async function* chunks(): AsyncGenerator<Buffer> {
    yield head;
    let sent = 0;
    const file = createReadStream(part.path, { highWaterMark: READ_CHUNK });
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        sent += chunk.length;
        if (sent > part.size) throw changed(part.path);
        activity();
        yield chunk;
        onProgress?.(sent, part.size);
      }
    } catch (err) {
      if (err instanceof TeamDataError) throw err;
      // A read error (EACCES, EIO, removed meanwhile) is about the file, not the network.
      const why = err instanceof Error ? err.message : String(err);
      throw new TeamDataError('FILE_UNREADABLE', { message: `cannot read ${part.path}: ${why}`, cause: err });
    } finally {
      file.destroy();
    }
    if (sent !== part.size) throw changed(part.path);
    yield tail;
  }

  return {
    body: Readable.from(chunks(), { objectMode: false }),
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.length + part.size + tail.length,
  };
}

function changed(path: string): TeamDataError {
  return new TeamDataError('FILE_UNREADABLE', { message: `the file changed while it was being uploaded: ${path}` });
}
