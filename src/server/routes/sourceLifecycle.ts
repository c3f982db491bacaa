/**
 * Creating and removing data sources, shared by the dataset-scoped and the dataset-less create
 * routes and by dataset deletion. The file a source is made from is linked (not copied) from its
 * upload, so a 1 GB upload costs no second gigabyte.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode } from '../../shared/errorCodes';
import { baseName, fileExtension, UNSAFE_NAME_CHARS } from '../../shared/fileNames';
import type { DecodedDataSourceBody } from '../../shared/requestCodecV1';
import { ApiError, badRequest } from '../http/envelope';
import { linkOrCopy } from '../files/linkOrCopy';
import { isSupportedExtension, unsupportedExtension } from '../files/uploadHandler';
import { newId } from '../ids';
import { IngestQueue } from '../ingest/ingestQueue';
import type { ServiceDeps } from '../serviceDeps';
import { toDataSource, type FileStamp, type SourceRecord } from '../state/records';
import { IN_PLACE_KINDS } from '../duckdb/duckDbStore';
import { fileFormatOf, type FileFormat } from '../duckdb/fileKinds';
import { checkInPlacePath, underRoots } from '../ingest/readRoots';
import type { DataSource } from '../../shared/domain';

function urlExtension(url: string): string {
  try {
    return fileExtension(decodeURIComponent(new URL(url).pathname));
  } catch {
    return '';
  }
}

/** A URL without `user:password@`: credentials are neither stored nor sent. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

function formatOrUndefined(name: string): FileFormat | undefined {
  try {
    return fileFormatOf(name);
  } catch {
    return undefined;
  }
}

/**
 * The file a `path` body names, when the service may read it in place: under one of its read roots
 * (symlinks resolved), a regular file. Anything else is a 400 saying why; the path is never read.
 */
export async function inPlaceFile(deps: ServiceDeps, path: string, leaseId: string | undefined): Promise<{ real: string; stamp: FileStamp }> {
  if (deps.inPlaceRoots) {
    // A shared service: only under the folders of the client asking (its lease names them).
    const own = deps.inPlaceRoots(leaseId);
    if (own === undefined || own.length === 0) {
      throw new ApiError(ErrorCode.INVALID_PARAMS, own === undefined
        ? 'path: reading a file in place needs a client that registered its folders with this service (a VS Code window, or team-data); upload the file instead'
        : 'path: this client registered no folder whose files may be read in place; upload the file instead');
    }
    const mine = await checkInPlacePath(path, own, { hardLinks: deps.readHardLinks === true });
    if (!mine.ok) throw new ApiError(ErrorCode.INVALID_PARAMS, `path: ${mine.reason}`);
    if (!underRoots(mine.real, deps.readRoots)) {
      throw new ApiError(ErrorCode.INVALID_PARAMS, `path: this service cannot read ${path} in place until it restarts, which it does once no job runs; try again in a moment`);
    }
    return mine;
  }
  const roots = deps.readRoots;
  const check = await checkInPlacePath(path, roots, { hardLinks: deps.readHardLinks === true });
  // HTTP 400 (the envelope's parameter error), so plain HTTP callers see the refusal as one.
  if (!check.ok) throw new ApiError(ErrorCode.INVALID_PARAMS, `path: ${check.reason}`);
  return check;
}

/**
 * Creates a source and queues it for processing; returns it as created (status `invalid` =
 * awaiting processing), before the queue moves it on.
 */
export async function createSource(
  deps: ServiceDeps, datasetId: string, body: DecodedDataSourceBody, userId: string | undefined, leaseId?: string,
): Promise<DataSource> {
  const upload = body.fileKey !== undefined ? deps.meta.uploads.get(body.fileKey) : undefined;
  if (body.fileKey !== undefined && upload === undefined) {
    throw new ApiError(ErrorCode.NOT_FOUND, 'fileKey: no uploaded file with this key; upload the file first');
  }
  // Names end up in download headers, trees and answers: no control or text-direction characters,
  // and only the last path component (a client's `../../x.csv` is `x.csv`).
  for (const [field, value] of [['fileName', body.fileName], ['name', body.name]] as const) {
    if (value !== undefined && UNSAFE_NAME_CHARS.test(value)) {
      throw badRequest(`${field}: must not contain control characters (line breaks, NUL) or invisible text-direction marks`);
    }
  }
  const inPlace = body.path !== undefined ? await inPlaceFile(deps, body.path, leaseId) : undefined;
  const fileName = baseName(body.fileName);
  if (fileName === '' || fileName === '.' || fileName === '..') throw badRequest('fileName: must name a file, not a folder');
  let ext = fileExtension(fileName);
  if (ext === '' && upload) ext = fileExtension(upload.fileName);
  if (ext === '' && body.url !== undefined) ext = urlExtension(body.url);
  if (!isSupportedExtension(ext)) throw unsupportedExtension(ext);
  if (inPlace !== undefined) {
    const format = formatOrUndefined(inPlace.real);
    if (format === undefined || !IN_PLACE_KINDS.includes(format.kind)) {
      throw new ApiError(ErrorCode.INVALID_PARAMS, `path: only CSV, TSV and Parquet files (also .csv.gz, .tsv.gz, .parquet.gz) are read in place; upload ${fileName} instead`);
    }
    // The name decides how the file is read, so it must say what the path is.
    const named = formatOrUndefined(fileName);
    if (named?.kind !== format.kind || named.gzip !== format.gzip) throw new ApiError(ErrorCode.INVALID_PARAMS, `fileName: ${fileName} does not name the same kind of file as path`);
  }

  const rec: SourceRecord = {
    id: newId(),
    datasetId,
    name: body.name ?? fileName,
    fileName,
    ext,
    status: 'invalid',
    origin: upload ? { kind: 'upload', fileKey: upload.fileKey }
      : inPlace ? { kind: 'path', path: inPlace.real }
        : { kind: 'url', url: withoutCredentials(body.url ?? '') },
    attempts: 0,
    createdAt: Date.now(),
  };
  if (userId !== undefined) rec.userId = userId;
  if (inPlace) rec.size = inPlace.stamp.size;
  if (upload) {
    const rel = IngestQueue.fileFor(rec);
    try {
      await linkOrCopy(join(deps.paths.uploadsDir, upload.storedName), join(deps.paths.root, rel));
    } catch (e) {
      deps.log('error', `could not take over an uploaded file: ${String(e)}`);
      throw new ApiError(ErrorCode.CREATE_DATASOURCE_FAILED, 'failed to create the data source: the uploaded file is no longer available');
    }
    rec.file = rel;
    rec.size = upload.size;
  }
  deps.meta.sources.set(rec.id, rec);
  await deps.meta.save();
  const created = toDataSource(rec);
  deps.ingest.enqueue(rec.id);
  return created;
}

/** Stops processing, drops the store's tables and deletes the file of a source. */
export async function removeSource(deps: ServiceDeps, rec: SourceRecord): Promise<void> {
  deps.meta.sources.delete(rec.id);
  await deps.ingest.cancel(rec.id);
  await deps.store.drop(rec.id).catch((e: unknown) => deps.log('warn', `could not drop tables of a deleted source: ${String(e)}`));
  const rel = IngestQueue.fileFor(rec);
  await unlink(join(deps.paths.root, rel)).catch(() => undefined);
  await unlink(join(deps.paths.root, `${rel}.part`)).catch(() => undefined);
}
