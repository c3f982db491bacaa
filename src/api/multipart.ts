/**
 * A `multipart/form-data` body with one file part, streamed from disk. Memory stays constant
 * whatever the file size: a few read buffers are reused for the whole file. The exact
 * Content-Length is known up front (size of the file plus the two small framing strings), which
 * proxies and object stores in front of the real service expect.
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
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
  /** Text fields sent before the file (v2 names the caller in a `user_id` field). */
  fields?: Readonly<Record<string, string>>;
}

/** Bytes of the file handed to the connection so far, and the file size. */
export type ProgressListener = (sentBytes: number, totalBytes: number) => void;

/**
 * How many file bytes one read yields, chosen by measurement (`npm run bench -- upload`, 1 GB,
 * throughput against curl, with the buffers and boundary below): 128 KiB 0.78x (client CPU
 * 1.8 s), 256 KiB 1.04-1.07x (1.0 s), 1 MiB 0.97x (0.8 s). Each chunk costs a thread-pool round
 * trip and a socket write; past 256 KiB the saving no longer shows in throughput.
 */
const READ_CHUNK = 256 * 1024;

/**
 * Read buffers in rotation. A fresh buffer per chunk costs a page-faulting allocation and,
 * worse, external memory that drives full garbage collections (about a third of a second per GB,
 * and more in a large process such as the extension host). A buffer is refilled only after the
 * consumer has pulled two more chunks: undici's iterable-body writer pulls the next chunk once the
 * previous one is in the kernel (the socket drained), so one spare is the margin, not the need.
 * The upload tests hash every byte the server receives, which catches any reuse too early.
 */
const RING = 3;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `count` random ASCII letters (5.7 bits each: 24 make 137 bits). The boundary uses letters, not
 * hex, because the receiver's boundary search (Boyer-Moore-Horspool in busboy, and in most
 * parsers) skips ahead by less whenever the data has a character that occurs in the boundary, and
 * CSV is mostly digits: busboy parsed 256 MB of CSV in 74 ms with this boundary against 108 ms
 * with 32 hex digits (and 97 ms with curl's).
 */
function randomLetters(count: number): string {
  let out = '';
  while (out.length < count) {
    for (const byte of randomBytes(count)) {
      // 208 = 4 * 52: rejecting the top 48 byte values keeps every letter equally likely.
      if (byte < 208 && out.length < count) out += LETTERS[byte % 52];
    }
  }
  return out;
}

/**
 * The body of one attempt. `activity` is called per chunk so the transport's timeout measures
 * stalls rather than the whole upload.
 */
export function multipartBody(part: FilePart, onProgress: ProgressListener | undefined, activity: () => void): RawBody {
  const boundary = `----TeamDataBoundary${randomLetters(24)}`;
  const fields = Object.entries(part.fields ?? {})
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoteFormValue(name)}"\r\n\r\n${value.replace(/\r\n?|\n/g, '\r\n')}\r\n`)
    .join('');
  const head = Buffer.from(
    fields +
      `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${quoteFormValue(part.fieldName)}"; filename="${quoteFormValue(part.fileName)}"\r\n` +
      `Content-Type: ${part.contentType}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');

  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield head;
    let sent = 0;
    try {
      for await (const chunk of fileChunks(part.path, part.size)) {
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
    }
    if (sent !== part.size) throw changed(part.path);
    yield tail;
  }

  return {
    body: chunks(),
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.length + part.size + tail.length,
  };
}

/**
 * The file's bytes in chunks of at most READ_CHUNK, read into RING rotating buffers with the next
 * read already under way while the consumer sends the current chunk. Reads past `expectedSize`
 * (by one buffer at most) so a file that grew is noticed. The file is opened on the first pull,
 * so a request that fails before sending never opens it, and closed however the iteration ends.
 */
async function* fileChunks(path: string, expectedSize: number): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  const length = Math.min(READ_CHUNK, expectedSize + 1);
  const ring = readBuffers(RING, length);
  let slot = 0;
  let position = 0;
  const readInto = (buffer: Buffer, at: number): Promise<number> => {
    const reading = handle.read(buffer, 0, length, at).then((r) => r.bytesRead);
    // Settled later (or never, if the consumer stops): keep a failure from counting as unhandled.
    reading.catch(() => undefined);
    return reading;
  };
  let pending = readInto(ring[0] as Buffer, 0);
  try {
    for (;;) {
      const bytesRead = await pending;
      if (bytesRead === 0) return;
      const current = (ring[slot] as Buffer).subarray(0, bytesRead);
      position += bytesRead;
      slot = (slot + 1) % RING;
      pending = readInto(ring[slot] as Buffer, position);
      yield current;
    }
  } finally {
    await pending.catch(() => undefined);
    await handle.close();
  }
}

/**
 * `count` buffers of `length` bytes cut from one allocation, each starting 2 KiB past where a
 * page-aligned buffer would. A large fresh allocation comes straight from mmap, 16 bytes past a
 * page boundary (the allocator's chunk header), and on this machine's AMD EPYC the kernel copies
 * a page-cache page into a destination 8-24 bytes past a page boundary about 8x slower than into
 * any other (256 MiB of reads: 10 ms against 1.2 ms). Mid-page keeps the mmap case well clear of
 * that band; an allocation served from the heap is 16-byte aligned and lands in it 1 time in 256.
 */
function readBuffers(count: number, length: number): Buffer[] {
  const PAGE = 4096;
  const stride = Math.ceil(length / PAGE) * PAGE;
  const slab = Buffer.allocUnsafeSlow(count * stride + PAGE);
  return Array.from({ length: count }, (_, i) => slab.subarray(PAGE / 2 + i * stride, PAGE / 2 + i * stride + length));
}

function changed(path: string): TeamDataError {
  return new TeamDataError('FILE_UNREADABLE', { message: `the file changed while it was being uploaded: ${path}` });
}
