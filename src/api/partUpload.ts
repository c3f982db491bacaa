/**
 * v2 upload of a file of 1 MB or more, as the service does it: `init-multipart-upload` (the
 * service decides the parts and signs one URL per part), each part PUT straight from the file to
 * its URL, three at a time, retried with backoff on connection failures and 5xx answers, then
 * `complete-multipart-upload` with every part's ETag. Memory stays flat whatever the size: a part
 * is read from disk as it is sent, never held whole. A cancel aborts the PUTs in flight and never
 * completes, so the service keeps no file.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { request } from 'undici';
import { undici } from './undiciLazy';
import { bareEtag, v2Multipart, type MultipartPlan, type PartEtag, type UploadPart } from '../shared/codecV2';
import { isObject, tryParseJson } from '../shared/json';
import { TeamDataError } from './errors';
import { excerpt, MAX_JSON_BYTES, readBody, type ResponseContext } from './envelope';
import type { ProgressListener } from './multipart';
import type { CallOptions } from './options';
import { backoffDelay, sleep } from './retry';
import { isTransient, type Transport } from './transport';

type UndiciBody = NonNullable<NonNullable<Parameters<typeof request>[1]>['body']>;

/** Parts sent at once (the official web client's choice). */
export const PARTS_IN_FLIGHT = 3;
/** Read size of a part's file stream: large enough to keep the socket busy, small in memory. */
const PART_READ_BYTES = 256 * 1024;

export interface PartUploadJob {
  path: string;
  size: number;
  /** The file's modification time when checked: a file changed during the upload is refused. */
  mtimeMs: number;
  fileName: string;
  userId: string;
  onProgress?: ProgressListener;
}

/** A part with where it starts in the file. */
interface PlacedPart extends UploadPart {
  offset: number;
}

/** Bytes handed to the connection per part, summed into one monotone figure for the caller. */
class PartProgress {
  private readonly sent = new Map<number, number>();
  private sum = 0;
  private reported = 0;
  constructor(private readonly total: number, private readonly listener: ProgressListener | undefined) {}

  add(part: number, bytes: number): void {
    this.sent.set(part, (this.sent.get(part) ?? 0) + bytes);
    this.sum += bytes;
    // A part sent again counts from zero; the figure shown never moves back.
    if (this.sum > this.reported) {
      this.reported = this.sum;
      this.listener?.(this.reported, this.total);
    }
  }

  restart(part: number): void {
    this.sum -= this.sent.get(part) ?? 0;
    this.sent.set(part, 0);
  }
}

function planError(detail: string): TeamDataError {
  return new TeamDataError('PROTOCOL', { message: `the service planned a multipart upload the client cannot follow: ${detail}`, operation: `POST ${v2Multipart.paths.init}` });
}

/** The plan's parts in order with their file offsets, after checking they cover the file exactly. */
function placeParts(plan: MultipartPlan, size: number): PlacedPart[] {
  const parts = [...plan.parts].sort((a, b) => a.number - b.number);
  let offset = 0;
  const placed = parts.map((p, i) => {
    if (p.number !== i + 1) throw planError(`part numbers are not 1 to ${parts.length}`);
    if (!Number.isInteger(p.size) || p.size <= 0) throw planError(`part ${p.number} has size ${p.size}`);
    const at = offset;
    offset += p.size;
    return { ...p, offset: at };
  });
  if (offset !== size) throw planError(`the parts add up to ${offset} bytes, the file has ${size}`);
  return placed;
}

/** The bytes of one part, streamed from the file; `onChunk` sees each chunk as it is handed over. */
async function* partBytes(path: string, part: PlacedPart, onChunk: (bytes: number) => void): AsyncGenerator<Uint8Array, void, undefined> {
  const stream = createReadStream(path, { start: part.offset, end: part.offset + part.size - 1, highWaterMark: PART_READ_BYTES });
  let sent = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      sent += chunk.length;
      yield chunk;
      onChunk(chunk.length);
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new TeamDataError('FILE_UNREADABLE', { message: `cannot read ${path}: ${why}`, cause: err });
  } finally {
    stream.destroy();
  }
  if (sent !== part.size) throw changed(path);
}

function changed(path: string): TeamDataError {
  return new TeamDataError('FILE_UNREADABLE', { message: `the file changed while it was being uploaded: ${path}` });
}

/** Failures of a part worth sending it again for: the connection, a timeout, the storage's 5xx or 429. */
const retryable = new WeakSet<TeamDataError>();

/** Uploads `job` in parts and returns the `fileKey` of the joined file. */
export async function uploadInParts(t: Transport, job: PartUploadJob, opts: CallOptions): Promise<{ fileKey: string }> {
  const userCall = { ...opts, userId: job.userId };
  const plan = await t.call(
    { method: 'POST', path: v2Multipart.paths.init, json: v2Multipart.encodeInitBody({ fileName: job.fileName, fileSize: job.size, userId: job.userId }) },
    userCall,
    (x) => v2Multipart.decodeInit(x),
  );
  const parts = placeParts(plan, job.size);
  const etags = await sendParts(t, job, parts, opts.signal);
  const now = await stat(job.path).catch(() => undefined);
  if (now === undefined || now.size !== job.size || now.mtimeMs !== job.mtimeMs) throw changed(job.path);
  return t.call(
    {
      method: 'POST',
      path: v2Multipart.paths.complete,
      json: v2Multipart.encodeCompleteBody({ fileKey: plan.fileKey, uploadId: plan.uploadId, parts: etags, userId: job.userId }),
    },
    userCall,
    (x) => v2Multipart.decodeComplete(x),
  );
}

/**
 * Sends every part, {@link PARTS_IN_FLIGHT} at a time. The first failure (or the caller's cancel)
 * aborts the parts still in flight and is what the upload rejects with.
 */
async function sendParts(t: Transport, job: PartUploadJob, parts: PlacedPart[], signal: AbortSignal | undefined): Promise<PartEtag[]> {
  const ac = new AbortController();
  const onAbort = (): void => ac.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const progress = new PartProgress(job.size, job.onProgress);
  const queue = [...parts];
  const etags: PartEtag[] = [];
  let failure: unknown;
  const worker = async (): Promise<void> => {
    for (let part = queue.shift(); part !== undefined && failure === undefined; part = queue.shift()) {
      try {
        etags.push({ number: part.number, etag: await sendPart(t, job, part, parts.length, progress, ac.signal) });
      } catch (err) {
        failure ??= err;
        ac.abort(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, parts.length) }, worker));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw t.aborted(`upload of ${job.fileName}`);
  if (failure !== undefined) throw failure;
  return etags.sort((a, b) => a.number - b.number);
}

/** One part, tried again with backoff while it fails in a retryable way. Resolves with its bare ETag. */
async function sendPart(
  t: Transport, job: PartUploadJob, part: PlacedPart, count: number, progress: PartProgress, signal: AbortSignal,
): Promise<string> {
  const { attempts, baseDelayMs, maxDelayMs } = t.settings.retry;
  const operation = `PUT part ${part.number} of ${count}`;
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw t.aborted(operation);
    try {
      return await putOnce(t, job, part, operation, progress, signal);
    } catch (err) {
      if (!(err instanceof TeamDataError) || !retryable.has(err) || attempt >= attempts || signal.aborted) throw err;
      progress.restart(part.number);
      const delay = backoffDelay(attempt, baseDelayMs, maxDelayMs);
      t.log('warn', `${operation}: ${err.message}; retrying in ${delay} ms (attempt ${attempt + 1} of ${attempts})`);
      try {
        await sleep(delay, signal);
      } catch {
        throw t.aborted(operation);
      }
    }
  }
}

async function putOnce(t: Transport, job: PartUploadJob, part: PlacedPart, operation: string, progress: PartProgress, signal: AbortSignal): Promise<string> {
  const { timeoutMs, idleTimeoutMs, dispatcher } = t.settings;
  const att = t.startAttempt(signal, timeoutMs);
  const body = partBytes(job.path, part, (n) => {
    att.touch();
    progress.add(part.number, n);
  });
  try {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await (await undici()).request(part.url, {
        method: 'PUT',
        // undici documents async iterable bodies; its typings list only streams and buffers.
        body: body as unknown as UndiciBody,
        headers: { 'content-length': String(part.size), 'content-type': 'application/octet-stream' },
        signal: att.signal,
        headersTimeout: timeoutMs + 5_000,
        bodyTimeout: idleTimeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      void body.return(undefined).catch(() => undefined);
      const e = t.transportError(err, operation, signal, att.timedOut());
      if (e.code === 'TIMEOUT' || isTransient(e)) retryable.add(e);
      throw e;
    }
    att.settle();
    const status = res.statusCode;
    if (status >= 200 && status <= 299) {
      await res.body.dump();
      const raw = res.headers['etag'];
      const etag = Array.isArray(raw) ? raw[0] : raw;
      if (etag === undefined || bareEtag(etag) === '') {
        throw new TeamDataError('PROTOCOL', { message: `the upload storage answered ${operation} without an ETag`, httpStatus: status, operation });
      }
      return bareEtag(etag);
    }
    throw await refusal(t, res.body, status, operation);
  } finally {
    att.release();
  }
}

/** The storage's refusal of a part: the service's envelope when it sent one, else its text. */
async function refusal(t: Transport, body: Parameters<typeof readBody>[0], status: number, operation: string): Promise<TeamDataError> {
  const ctx: ResponseContext = { httpStatus: status, traceId: undefined, operation, contentType: '', scrub: t.scrub };
  const text = await readBody(body, MAX_JSON_BYTES, ctx).catch(() => '');
  const parsed = tryParseJson(text);
  const code = isObject(parsed) ? parsed['code'] : undefined;
  const msg = isObject(parsed) && typeof parsed['msg'] === 'string' ? t.scrub(parsed['msg']) : undefined;
  const e = typeof code === 'number' && code !== 0
    ? new TeamDataError(code, { httpStatus: status, operation, ...(msg !== undefined ? { serviceMessage: msg } : {}) })
    : new TeamDataError('PROTOCOL', { httpStatus: status, operation, message: `the upload storage refused ${operation} (HTTP ${status})${text.trim() ? `: ${excerpt(t.scrub(text))}` : ''}` });
  if (status >= 500 || status === 429) retryable.add(e);
  return e;
}
