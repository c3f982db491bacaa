/**
 * A deliberately fake service for client tests: each request is answered by the next scripted
 * handler, so tests can inject faults the real service never produces on demand (a cut
 * connection, 429 then success, slow headers, a malformed frame). It records every request,
 * including uploads, whose multipart body it parses with busboy and hashes as it streams by.
 */
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UploadedFile {
  field: string;
  fileName: string;
  mimeType: string;
  bytes: number;
  sha256: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** The raw request target, as sent (path and query). */
  target: string;
  headers: IncomingHttpHeaders;
  /** The body (empty for multipart, which is summarised in `files`). */
  body: Buffer;
  files: UploadedFile[];
  /** Text fields of a multipart body, in order. */
  fields: Array<[string, string]>;
  /** Set when the body did not arrive whole (client aborted, bad multipart). */
  bodyError?: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** Writes an envelope `{code, msg, data}` with the given HTTP status. */
export function sendEnvelope(res: ServerResponse, status: number, code: number, data: unknown = null, msg: string | null = null, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ code, msg, data });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-pd-trace-id': 'svc-trace-1', ...headers });
  res.end(body);
}

export function ok(data: unknown): Handler {
  return (_req, res) => sendEnvelope(res, 200, 0, data);
}

/** Writes each chunk separately (Nagle off, a macrotask between writes) so the client reads them apart. */
export async function writeChunks(res: ServerResponse, chunks: readonly Uint8Array[], opts: { end?: boolean; gapMs?: number } = {}): Promise<void> {
  res.socket?.setNoDelay(true);
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-pd-trace-id': 'svc-trace-sse' });
  res.flushHeaders();
  for (const chunk of chunks) {
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, opts.gapMs ?? 0));
  }
  if (opts.end !== false) res.end();
}

/** Streams `chunks` then, without ending the chunked body properly, kills the socket. */
export async function writeThenCut(res: ServerResponse, chunks: readonly Uint8Array[]): Promise<void> {
  await writeChunks(res, chunks, { end: false });
  res.socket?.destroy();
}

export class FaultServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Handler[] = [];
  private fallback: Handler = (_req, res) => sendEnvelope(res, 200, 300003, null, 'no scripted answer');
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  static async start(): Promise<FaultServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fs = new FaultServer(server, `http://127.0.0.1:${port}`);
    server.on('connection', (s) => {
      fs.sockets.add(s);
      s.on('close', () => fs.sockets.delete(s));
    });
    server.on('request', (req, res) => void fs.handle(req, res));
    return fs;
  }

  /** Answers the next requests, one handler each, in order. */
  enqueue(...handlers: Handler[]): this {
    this.queue.push(...handlers);
    return this;
  }

  /** Answers every request not covered by the queue. */
  otherwise(handler: Handler): this {
    this.fallback = handler;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rec: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      target: req.url ?? '',
      headers: req.headers,
      body: Buffer.alloc(0),
      files: [],
      fields: [],
    };
    this.requests.push(rec);
    try {
      if ((req.headers['content-type'] ?? '').startsWith('multipart/form-data')) await readMultipart(req, rec);
      else rec.body = await readAll(req);
    } catch (err) {
      rec.bodyError = err instanceof Error ? err.message : String(err);
      if (!res.headersSent) res.destroy();
      return;
    }
    const handler = this.queue.shift() ?? this.fallback;
    try {
      await handler(rec, res);
    } catch (err) {
      if (!res.headersSent) sendEnvelope(res, 500, 9999, null, String(err));
      else res.destroy();
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('request aborted')));
  });
}

/** Parses the multipart body as it streams, hashing file parts without keeping them. */
function readMultipart(req: IncomingMessage, rec: RecordedRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    // UTF-8 file names are sent raw, as browsers do; busboy defaults to latin1 for parameters.
    const bb = busboy({ headers: req.headers, defParamCharset: 'utf8' });
    let pending = 0;
    let finished = false;
    const maybeDone = (): void => {
      if (finished && pending === 0) resolve();
    };
    bb.on('file', (field, stream, info) => {
      pending++;
      const hash = createHash('sha256');
      let bytes = 0;
      stream.on('data', (c: Buffer) => {
        bytes += c.length;
        hash.update(c);
      });
      stream.on('end', () => {
        if ((stream as unknown as { truncated?: boolean }).truncated) {
          reject(new Error('file truncated'));
          return;
        }
        rec.files.push({ field, fileName: info.filename ?? '', mimeType: info.mimeType, bytes, sha256: hash.digest('hex') });
        pending--;
        maybeDone();
      });
      stream.on('error', reject);
    });
    bb.on('field', (name, value) => rec.fields.push([name, value]));
    bb.on('close', () => {
      finished = true;
      maybeDone();
    });
    bb.on('error', reject);
    req.on('aborted', () => reject(new Error('request aborted')));
    req.on('error', reject);
    req.pipe(bb);
  });
}
