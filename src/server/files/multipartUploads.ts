/**
 * v2 multipart uploads as the hosted service does them with object storage: init decides the part
 * sizes and hands out one presigned URL per part; each part is PUT raw to its URL and answered
 * with an `ETag`; complete checks every ETag and joins the parts into one uploaded file.
 *
 * A part URL carries its expiry and an HMAC over (upload, part, expiry) with a secret made for
 * this service process, so it works without the API key (as presigned URLs do), only for that
 * part of that upload, and only until it expires. Parts stream to disk (memory stays flat whatever
 * the size). Uploads live in memory: one that is never completed is removed with its parts once its
 * URLs have expired, and a restart removes every unfinished upload.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bareEtag, type MultipartPlan } from '../../shared/codecV2';
import { ErrorCode } from '../../shared/errorCodes';
import { fileExtension, safeFileName } from '../../shared/fileNames';
import { ApiError, badRequest } from '../http/envelope';

/** A refused part must not look like success to an S3-style client: HTTP 400, not 200. */
const badPart = (msg: string): ApiError => new ApiError(ErrorCode.BAD_REQUEST, msg, 400);
import { bodyTimeout, BODY_IDLE_MS } from '../http/requestBody';
import { bodyTooSlow, DEFAULT_MIN_BODY_RATE, watchBodyRate, type MinBodyRate } from '../http/bodyRate';
import { newId } from '../ids';
import { isSupportedExtension, unsupportedExtension, type UploadedFile } from './uploadHandler';

/** The official web client cuts 5 MB chunks; parts of the same size keep it working unchanged. */
export const DEFAULT_PART_BYTES = 5 * 1024 * 1024;
/** The hosted service's part URLs last a day (X-Amz-Expires=86399). */
export const DEFAULT_PART_URL_TTL_MS = 24 * 60 * 60 * 1000;
/** Object storage allows at most 10,000 parts per upload. */
const MAX_PARTS = 10_000;
const WRITE_HWM = 1024 * 1024;

/** Path of the part route; `:uploadId` and `:number` are filled in per part. */
export const PART_ROUTE = '/uploads/parts/:uploadId/:number';

interface Part {
  size: number;
  etag?: string;
}

interface Upload {
  id: string;
  fileKey: string;
  fileName: string;
  size: number;
  parts: Part[];
  userId?: string;
  expiresAt: number;
  dir: string;
  /** Set once complete has started: no part is accepted after it. */
  closed: boolean;
  /** Part writes finish one at a time, so a part's ETag always describes the bytes kept. */
  tail: Promise<void>;
}

export type PartVerdict = 'ok' | 'expired' | 'bad';

/** Counts bytes and hashes them on their way to disk; stops past the part's size. */
class PartMeter extends Transform {
  readonly md5 = createHash('md5');
  bytes = 0;
  constructor(private readonly limit: number, private readonly onChunk: (bytes: number) => void) {
    super({ highWaterMark: WRITE_HWM });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.onChunk(chunk.length);
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      done(new PartTooLarge());
      return;
    }
    this.md5.update(chunk);
    done(null, chunk);
  }
}

class PartTooLarge extends Error {}

export interface MultipartOptions {
  dir: string;
  maxBytes: number;
  partBytes?: number;
  urlTtlMs?: number;
  /** What every window of a part's body must bring; default DEFAULT_MIN_BODY_RATE (see bodyRate.ts). */
  minRate?: MinBodyRate;
}

export class MultipartUploads {
  private readonly uploads = new Map<string, Upload>();
  private readonly secret = randomBytes(32);
  private readonly partBytes: number;
  private readonly ttlMs: number;
  private readonly sweeper: NodeJS.Timeout;
  private baseUrl = '';

  private constructor(private readonly o: MultipartOptions) {
    this.partBytes = o.partBytes ?? DEFAULT_PART_BYTES;
    this.ttlMs = o.urlTtlMs ?? DEFAULT_PART_URL_TTL_MS;
    this.sweeper = setInterval(() => void this.sweep(), Math.max(250, Math.min(60_000, Math.floor(this.ttlMs / 2))));
    this.sweeper.unref();
  }

  /** Starts empty: parts left by an earlier run can never be completed, so they are removed. */
  static async open(o: MultipartOptions): Promise<MultipartUploads> {
    await rm(o.dir, { recursive: true, force: true });
    await mkdir(o.dir, { recursive: true, mode: 0o700 });
    return new MultipartUploads(o);
  }

  setBaseUrl(url: string): void {
    this.baseUrl = url;
  }

  /** Number of uploads in progress (for tests and logs). */
  get active(): number {
    return this.uploads.size;
  }

  async init(rawName: string, size: number, userId: string | undefined): Promise<MultipartPlan> {
    const fileName = safeFileName(rawName, 'upload');
    const ext = fileExtension(fileName);
    if (!isSupportedExtension(ext)) throw unsupportedExtension(ext);
    if (size === 0) throw new ApiError(ErrorCode.EMPTY_FILE, 'file_size: the file is empty');
    if (size > this.o.maxBytes) throw new ApiError(ErrorCode.INSUFFICIENT_STORAGE, `file_size: larger than the upload limit of ${this.o.maxBytes} bytes`);
    const partBytes = Math.max(this.partBytes, Math.ceil(size / MAX_PARTS));
    const count = Math.ceil(size / partBytes);
    const id = newId();
    const up: Upload = {
      id, fileKey: `uploads/${newId()}${ext}`, fileName, size, parts: [], expiresAt: Date.now() + this.ttlMs,
      dir: join(this.o.dir, id), closed: false, tail: Promise.resolve(),
    };
    if (userId !== undefined) up.userId = userId;
    for (let i = 0; i < count; i++) up.parts.push({ size: i < count - 1 ? partBytes : size - partBytes * (count - 1) });
    await mkdir(up.dir, { mode: 0o700 });
    this.uploads.set(id, up);
    return {
      uploadId: id,
      fileKey: up.fileKey,
      parts: up.parts.map((p, i) => ({ number: i + 1, size: p.size, url: this.partUrl(id, i + 1, up.expiresAt) })),
    };
  }

  private sign(uploadId: string, n: number, expires: number): string {
    return createHmac('sha256', this.secret).update(`part\n${uploadId}\n${n}\n${expires}`).digest('base64url');
  }

  private partUrl(uploadId: string, n: number, expires: number): string {
    const path = PART_ROUTE.replace(':uploadId', encodeURIComponent(uploadId)).replace(':number', String(n));
    return `${this.baseUrl}${path}?expires=${expires}&signature=${this.sign(uploadId, n, expires)}`;
  }

  /** Checks a part URL's signature first (so nothing is learnt without one), then its expiry. */
  verify(uploadId: string, n: number, expires: string | null, signature: string | null): PartVerdict {
    if (expires === null || signature === null || !/^\d{1,15}$/.test(expires)) return 'bad';
    const want = Buffer.from(this.sign(uploadId, n, Number(expires)));
    const got = Buffer.from(signature);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return 'bad';
    return Number(expires) < Date.now() ? 'expired' : 'ok';
  }

  /** Streams one part to disk; resolves with its ETag (hex MD5, as object storage gives). */
  async receivePart(uploadId: string, n: number, req: IncomingMessage): Promise<string> {
    const up = this.open(uploadId);
    const part = up.parts[n - 1];
    if (part === undefined) throw new ApiError(ErrorCode.NOT_FOUND, `part ${n}: this upload has ${up.parts.length} parts`, 404);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > part.size) throw badPart(`part ${n}: ${declared} bytes sent, the part is ${part.size} bytes`);
    const tmp = join(up.dir, `${n}.${newId()}.tmp`);
    // A client that stops sending mid-part is answered 408 rather than holding the socket forever.
    // One that never quite stops, but trickles, too.
    let stalled: ApiError | undefined;
    // The meter fails (not the request): the socket stays open for the 408 that says why.
    const stop = (why: ApiError): void => {
      stalled = why;
      meter.destroy(new Error('upload stalled'));
    };
    const idle = setTimeout(() => stop(bodyTimeout()), BODY_IDLE_MS);
    const minRate = this.o.minRate ?? DEFAULT_MIN_BODY_RATE;
    const rate = watchBodyRate(req, minRate, () => stop(bodyTooSlow(minRate)));
    const meter = new PartMeter(part.size, (bytes) => {
      idle.refresh();
      rate.seen(bytes);
    });
    try {
      await pipeline(req, meter, createWriteStream(tmp, { mode: 0o600, highWaterMark: WRITE_HWM }));
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      if (e instanceof PartTooLarge) throw badPart(`part ${n}: more than its ${part.size} bytes`);
      if (stalled) throw stalled;
      throw new ApiError(ErrorCode.UPLOAD_FAILED, `part ${n}: the upload was interrupted`, 400);
    } finally {
      clearTimeout(idle);
      rate.stop();
    }
    if (meter.bytes !== part.size) {
      await unlink(tmp).catch(() => undefined);
      throw badPart(`part ${n}: ${meter.bytes} bytes received, the part is ${part.size} bytes`);
    }
    const etag = meter.md5.digest('hex');
    const keep = up.tail.then(async () => {
      if (up.closed || !this.uploads.has(up.id)) throw new ApiError(ErrorCode.NOT_FOUND, 'upload_id: this upload is finished or has expired', 404);
      await rename(tmp, join(up.dir, `${n}.part`));
      part.etag = etag;
    });
    up.tail = keep.catch(() => undefined);
    try {
      await keep;
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    return etag;
  }

  /**
   * Joins the parts in order into one file under `uploadsDir` once every part is there and every
   * ETag matches. The upload is gone afterwards (a second complete finds nothing).
   */
  async complete(uploadId: string, fileKey: string, etags: ReadonlyArray<{ number: number; etag: string }>, uploadsDir: string): Promise<UploadedFile & { fileKey: string; userId?: string }> {
    const up = this.open(uploadId);
    if (up.fileKey !== fileKey) throw badRequest('file_object_key: does not belong to this upload_id');
    const seen = new Set<number>();
    for (const e of etags) {
      const part = up.parts[e.number - 1];
      if (part === undefined) throw badRequest(`part_etags: part ${e.number} does not exist (this upload has ${up.parts.length})`);
      if (seen.has(e.number)) throw badRequest(`part_etags: part ${e.number} is listed twice`);
      seen.add(e.number);
      if (part.etag === undefined) throw badRequest(`part_etags: part ${e.number} has not been uploaded`);
      if (bareEtag(e.etag) !== part.etag) throw badRequest(`part_etags: the ETag of part ${e.number} does not match the uploaded part`);
    }
    if (seen.size !== up.parts.length) throw badRequest(`part_etags: ${seen.size} of ${up.parts.length} parts listed; list every part`);
    up.closed = true;
    await up.tail;
    const storedName = newId();
    const tmp = join(uploadsDir, `${storedName}.part`);
    try {
      // One pipeline for all parts, in order: one listener set on the file however many parts.
      const dir = up.dir;
      const count = up.parts.length;
      async function* partsInOrder(): AsyncGenerator<Buffer> {
        for (let n = 1; n <= count; n++) yield* createReadStream(join(dir, `${n}.part`), { highWaterMark: WRITE_HWM });
      }
      await pipeline(partsInOrder(), createWriteStream(tmp, { mode: 0o600, highWaterMark: WRITE_HWM }));
      await rename(tmp, join(uploadsDir, storedName));
    } catch {
      await unlink(tmp).catch(() => undefined);
      up.closed = false;
      throw new ApiError(ErrorCode.UPLOAD_FAILED, 'could not join the uploaded parts: try completing again');
    }
    await this.drop(up);
    const out: UploadedFile & { fileKey: string; userId?: string } = { storedName, fileName: up.fileName, size: up.size, fields: {}, fileKey: up.fileKey };
    if (up.userId !== undefined) out.userId = up.userId;
    return out;
  }

  private open(uploadId: string): Upload {
    const up = this.uploads.get(uploadId);
    if (up === undefined || up.closed) throw new ApiError(ErrorCode.NOT_FOUND, 'upload_id: no such upload in progress (finished, expired or never started)', 404);
    return up;
  }

  private async drop(up: Upload): Promise<void> {
    this.uploads.delete(up.id);
    await rm(up.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** Removes uploads whose part URLs have expired: nobody can finish them any more. */
  async sweep(now = Date.now()): Promise<void> {
    for (const up of [...this.uploads.values()]) {
      if (up.expiresAt < now && !up.closed) await this.drop(up);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const up of [...this.uploads.values()]) await this.drop(up);
  }
}
