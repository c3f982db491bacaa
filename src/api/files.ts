/**
 * File upload. v1: one form POST (`{upload}?userId=...`). v2: a form POST with `file` and
 * `user_id` for files under 1 MB, the multipart upload through presigned part URLs for larger
 * ones (see partUpload.ts), as the service recommends. Everything that can be checked locally is
 * checked before a byte is sent: the extension against the service's list, that the path is a
 * readable, non-empty regular file, and that a user id is known.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { SUPPORTED_EXTENSIONS } from '../shared/domain';
import { fileExtension } from '../shared/fileNames';
import { TeamDataError } from './errors';
import { contentTypeFor, multipartBody, type ProgressListener } from './multipart';
import type { UserCallOptions } from './options';
import { uploadInParts } from './partUpload';
import { userIdOf } from './paging';
import type { Transport } from './transport';

/** v2 sends files from this size on in parts (the service recommends its single upload below 1 MB). */
export const V2_PART_UPLOAD_FROM_BYTES = 1024 * 1024;

export interface UploadOptions extends UserCallOptions {
  /**
   * Called as file bytes are handed to the connection: `sentBytes` grows monotonically to
   * `totalBytes` (the file size). A rate-limited attempt that is retried does not move it back.
   */
  onProgress?: ProgressListener;
  /** The file name the service records (default: the path's base name). */
  fileName?: string;
}

/** Uploads files for data sources. */
export class FilesApi {
  constructor(private readonly t: Transport) {}

  /**
   * Streams the file at `path` to the service and returns its `fileKey` (for
   * `dataSources.create`). Memory use does not depend on the file size. Never retried after a
   * connection failure; retried on rate limits. Under v2, a file of 1 MB or more goes in parts,
   * three in flight, each part retried on connection failures and 5xx answers; cancelling aborts
   * the parts in flight and completes nothing.
   *
   * @throws TeamDataError `UNSUPPORTED_FILE`, `EMPTY_FILE`, `FILE_UNREADABLE` or
   *   `INVALID_ARGUMENT` before sending; the service's code, `NETWORK`, `TIMEOUT`, `ABORTED` after.
   */
  async upload(path: string, opts: UploadOptions = {}): Promise<{ fileKey: string }> {
    const userId = userIdOf(this.t, opts);
    if (userId === undefined) {
      throw new TeamDataError('INVALID_ARGUMENT', { message: 'upload needs a userId (client option or call option)' });
    }
    const fileName = opts.fileName ?? basename(path);
    const ext = fileExtension(fileName);
    if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(ext)) {
      throw new TeamDataError('UNSUPPORTED_FILE', {
        message: `unsupported file type "${ext || 'none'}" for ${fileName}: supported are ${SUPPORTED_EXTENSIONS.join(' ')}`,
      });
    }
    const { size, mtimeMs } = await checkFile(path);
    if (opts.signal?.aborted) throw this.t.aborted(`POST ${this.t.codec.paths.upload}`);
    let reported = 0;
    const onProgress: ProgressListener | undefined = opts.onProgress
      ? (sent, total) => {
          if (sent <= reported) return;
          reported = sent;
          opts.onProgress?.(sent, total);
        }
      : undefined;
    const codec = this.t.codec;
    if (codec.version === 'v2' && size >= V2_PART_UPLOAD_FROM_BYTES) {
      return uploadInParts(this.t, { path, size, mtimeMs, fileName, userId, ...(onProgress ? { onProgress } : {}) }, opts);
    }
    const v2 = codec.version === 'v2';
    // v1 names the caller in the query, v2 in a form field beside the file.
    const part = { path, size, fieldName: codec.uploadFileField, fileName, contentType: contentTypeFor(ext), ...(v2 ? { fields: { [codec.userIdParam]: userId } } : {}) };
    return this.t.call(
      {
        method: 'POST',
        path: codec.paths.upload,
        ...(v2 ? {} : { query: { [codec.userIdParam]: userId } }),
        body: (activity) => multipartBody(part, onProgress, activity),
      },
      opts,
      (data) => codec.decodeUploadResult(data),
    );
  }
}

/** The file's size and modification time, after checking it is a readable, non-empty regular file. */
async function checkFile(path: string): Promise<{ size: number; mtimeMs: number }> {
  let info;
  try {
    info = await stat(path);
    await access(path, constants.R_OK);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code ?? err);
    throw new TeamDataError('FILE_UNREADABLE', { message: `cannot read ${path}: ${why}`, cause: err });
  }
  if (!info.isFile()) throw new TeamDataError('FILE_UNREADABLE', { message: `cannot upload ${path}: not a regular file` });
  if (info.size === 0) throw new TeamDataError('EMPTY_FILE', { message: `cannot upload ${path}: the file is empty` });
  return { size: info.size, mtimeMs: info.mtimeMs };
}
