/**
 * Multipart upload of a data source file, streamed straight to disk through busboy (constant
 * memory whatever the size). The file is written under a generated name; the client's file name
 * is only kept, sanitised, as metadata. Oversized, empty, wrongly named or aborted uploads leave
 * nothing behind.
 */
import busboy from 'busboy';
import { bodyTimeout, BODY_IDLE_MS } from '../http/requestBody';
import { bodyTooSlow, DEFAULT_MIN_BODY_RATE, watchBodyRate, type MinBodyRate } from '../http/bodyRate';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SUPPORTED_EXTENSIONS } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import { fileExtension, safeFileName } from '../../shared/fileNames';
import { ApiError, badRequest } from '../http/envelope';
import { newId } from '../ids';

/** Large buffers keep a 1 GB upload near disk speed without holding more than a few MB. */
const READ_HWM = 1024 * 1024;
const WRITE_HWM = 1024 * 1024;

export interface UploadedFile {
  storedName: string;
  fileName: string;
  size: number;
  /** Text fields of the form (v2 sends `user_id` beside the file); first value of each name. */
  fields: Record<string, string>;
}

export function unsupportedExtension(ext: string): ApiError {
  const shown = ext === '' ? 'no extension' : `'${ext.slice(0, 20)}'`;
  return new ApiError(ErrorCode.BAD_EXTENSION, `unsupported file extension (${shown}): use one of ${SUPPORTED_EXTENSIONS.join(' ')}`);
}

export function isSupportedExtension(ext: string): boolean {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(ext);
}

/**
 * Receives the `file` part of a multipart request into `dir`. Resolves once the whole request has
 * been read (so the response reaches a client that is still sending), or rejects with an ApiError.
 * `minRate`: what every window of the body must bring (see bodyRate.ts).
 */
export function receiveUpload(req: IncomingMessage, dir: string, maxBytes: number, fileField = 'file', minRate: MinBodyRate = DEFAULT_MIN_BODY_RATE): Promise<UploadedFile> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: req.headers,
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, headerPairs: 100 },
      highWaterMark: READ_HWM,
      fileHwm: READ_HWM,
    });
  } catch {
    return Promise.reject(badRequest('Content-Type: expected multipart/form-data with a boundary'));
  }
  return new Promise<UploadedFile>((resolve, reject) => {
    let failure: ApiError | undefined;
    let writing: Promise<UploadedFile | undefined> | undefined;
    let current: NodeJS.ReadableStream & { destroy(err?: Error): void } | undefined;
    let finishing = false;
    const fields = Object.create(null) as Record<string, string>;
    const tmpPath = join(dir, `${newId()}.part`);

    const failWith = (err: ApiError): void => {
      failure ??= err;
    };

    bb.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    bb.on('file', (field, stream, info) => {
      // Busboy destroys the part's stream with its parse error (e.g. a truncated form); the error
      // is handled once, on busboy itself, so parts nobody pipes must not throw it again.
      stream.on('error', () => undefined);
      if (field !== fileField || writing !== undefined) {
        stream.resume();
        return;
      }
      const fileName = safeFileName(info.filename ?? '', 'upload');
      const ext = fileExtension(fileName);
      if (!isSupportedExtension(ext)) {
        failWith(unsupportedExtension(ext));
        stream.resume();
        writing = Promise.resolve(undefined);
        return;
      }
      current = stream;
      stream.on('limit', () => failWith(new ApiError(ErrorCode.INSUFFICIENT_STORAGE, `file: larger than the upload limit of ${maxBytes} bytes`)));
      const out = createWriteStream(tmpPath, { mode: 0o600, highWaterMark: WRITE_HWM });
      writing = pipeline(stream, out).then(() => {
        if (failure) return undefined;
        if (out.bytesWritten === 0) {
          failWith(new ApiError(ErrorCode.EMPTY_FILE, 'file: the uploaded file is empty'));
          return undefined;
        }
        return { storedName: newId(), fileName, size: out.bytesWritten, fields };
      });
    });
    bb.on('error', () => {
      failWith(badRequest('body: malformed multipart data'));
      req.unpipe(bb);
      req.resume();
      current?.destroy(new Error('malformed multipart data'));
      void finish();
    });
    bb.on('close', () => void finish());
    // A client that stops sending mid-body is answered 408 instead of holding the connection forever.
    let idle = setTimeout(() => stalled(bodyTimeout()), BODY_IDLE_MS);
    // One that never quite stops, but trickles, is answered 408 too.
    const rate = watchBodyRate(req, minRate, () => stalled(bodyTooSlow(minRate)));
    function stalled(why: ApiError): void {
      failWith(why);
      req.unpipe(bb);
      current?.destroy(new Error('upload stalled'));
      void finish();
    }
    req.on('data', (chunk: Buffer) => {
      rate.seen(chunk.length);
      clearTimeout(idle);
      if (!finishing) idle = setTimeout(() => stalled(bodyTimeout()), BODY_IDLE_MS);
    });
    req.on('close', () => {
      if (req.complete) return;
      failWith(badRequest('upload aborted by the client'));
      current?.destroy(new Error('upload aborted'));
      void finish();
    });

    const finish = async (): Promise<void> => {
      if (finishing) return;
      finishing = true;
      clearTimeout(idle);
      rate.stop();
      let result: UploadedFile | undefined;
      try {
        result = await writing;
      } catch {
        failWith(new ApiError(ErrorCode.UPLOAD_FAILED, 'upload failed while writing the file'));
      }
      if (!failure && result === undefined) failWith(badRequest(`${fileField}: required (a multipart file field)`));
      if (failure || result === undefined) {
        await unlink(tmpPath).catch(() => undefined);
        reject(failure);
        return;
      }
      try {
        await rename(tmpPath, join(dir, result.storedName));
      } catch {
        await unlink(tmpPath).catch(() => undefined);
        reject(new ApiError(ErrorCode.UPLOAD_FAILED, 'upload failed while storing the file'));
        return;
      }
      resolve(result);
    };
    req.pipe(bb);
  });
}
