/**
 * Gets a text file ready for one of DuckDB's readers: rejects empty and binary files with a clear
 * reason, transcodes UTF-16 and legacy 8-bit encodings to UTF-8, and gives DuckDB a path it will not
 * misread (its readers treat `*`, `?`, `[` and `{` as glob patterns).
 */
import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { IngestError } from '../engine';
import { linkOrCopy } from '../files/linkOrCopy';
import { isValidUtf8, readHead, sniffHead, transcodeToUtf8, type TextEncodingGuess } from './fileSniff';
import type { GzipScan } from './gzipScan';

export interface PreparedInput {
  /** The path DuckDB should read. */
  path: string;
  /** Whether `path` is already a UTF-8 copy made here (no further transcoding possible). */
  transcoded: boolean;
  /** Whether `path` is gzip-compressed (DuckDB is told so: a stored upload's name may not end in .gz). */
  gzip: boolean;
  /** The original file's encoding when it was not UTF-8 (so shown SQL can ask DuckDB to decode it). */
  sourceEncoding?: 'utf-16le' | 'utf-16be' | 'windows-1252';
  /** Removes temporary copies. Safe to call twice. */
  cleanup(): Promise<void>;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Whether DuckDB's readers would take this path as a glob pattern (and read other files). */
export function isGlobLike(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/** A type label for messages: "CSV", "JSON". */
export type InputLabel = string;

function binaryReason(what: string, label: InputLabel, fileName: string): string {
  // A compressed export saved without its .gz: the service reads it once the name says so.
  if (/gzip/.test(what) && !/\.gz\b/i.test(fileName)) return `${fileName} is gzip-compressed ${label}; name it ${fileName}.gz (or decompress it) and add it again`;
  return `${fileName} is not a ${label} text file: it looks like ${what}. Export the data as ${label} (UTF-8 text) and upload it again`;
}

/** Head bytes minus a possibly cut multi-byte character at the end, for an honest UTF-8 check. */
function trimPartialUtf8(head: Buffer, whole: boolean): Buffer {
  if (whole) return head;
  let end = head.length;
  // Step back over continuation bytes (10xxxxxx) and the lead byte that started them.
  for (let i = 0; i < 4 && end > 0 && ((head[end - 1] ?? 0) & 0xc0) === 0x80; i++) end--;
  if (end > 0 && ((head[end - 1] ?? 0) & 0x80) !== 0) end--;
  return head.subarray(0, end);
}

/**
 * Checks and normalises the input. Throws {@link IngestError} for empty, whitespace-only and binary
 * files. `workDir` receives any temporary copy. A gzip file comes with its scan (gzipScan.ts): the
 * checks then look at the inflated bytes, and only a file that is not UTF-8 is inflated to disk.
 */
export async function prepareInput(
  filePath: string, fileName: string, label: InputLabel, workDir: string, signal: AbortSignal, gzip?: GzipScan,
): Promise<PreparedInput> {
  const abs = resolve(filePath);
  const size = gzip !== undefined ? gzip.bytes : (await stat(abs)).size;
  const head = gzip !== undefined ? gzip.head : await readHead(abs);
  const sniff = sniffHead(head);
  if (sniff.kind === 'empty') throw new IngestError(`${fileName} is empty`);
  if (sniff.kind === 'binary') throw new IngestError(binaryReason(sniff.what, label, gzip !== undefined ? `${fileName} (decompressed)` : fileName));
  const whole = head.length >= size;
  let encoding: TextEncodingGuess | 'windows-1252' = sniff.encoding;
  if (encoding === 'utf-8' && !isValidUtf8(trimPartialUtf8(head, whole))) encoding = 'windows-1252';
  if (whole && encoding === 'utf-8' && head.toString('utf-8').replace(/^\uFEFF/, '').trim().length === 0) {
    throw new IngestError(`${fileName} contains no data (only blank lines)`);
  }
  const temps: string[] = [];
  const cleanup = async (): Promise<void> => {
    for (const t of temps.splice(0)) await rm(t, { force: true });
  };
  try {
    if (encoding !== 'utf-8') {
      const dst = join(workDir, `${randomUUID()}.txt`);
      temps.push(dst);
      await transcodeToUtf8(abs, dst, encoding, signal, gzip !== undefined);
      return { path: dst, transcoded: true, gzip: false, sourceEncoding: encoding, cleanup };
    }
    if (GLOB_CHARS.test(abs)) {
      const dst = join(workDir, `${randomUUID()}.txt`);
      temps.push(dst);
      await linkOrCopy(abs, dst);
      return { path: dst, transcoded: false, gzip: gzip !== undefined, cleanup };
    }
    return { path: abs, transcoded: false, gzip: gzip !== undefined, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * A windows-1252 -> UTF-8 copy of an input DuckDB found invalid UTF-8 in (past the sniffed head).
 * The returned input owns both temporaries.
 */
export async function transcodeLegacy(input: PreparedInput, workDir: string, signal: AbortSignal): Promise<PreparedInput> {
  const dst = join(workDir, `${randomUUID()}.txt`);
  try {
    await transcodeToUtf8(input.path, dst, 'windows-1252', signal, input.gzip);
  } catch (err) {
    await rm(dst, { force: true });
    throw err;
  }
  return {
    path: dst,
    transcoded: true,
    gzip: false,
    sourceEncoding: 'windows-1252',
    async cleanup() {
      await rm(dst, { force: true });
      await input.cleanup();
    },
  };
}

/** DuckDB's message for text that is not valid UTF-8. */
export function isEncodingError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /invalid unicode|not utf-8 encoded|invalid utf-?8|byte sequence mismatch/i.test(m);
}

/**
 * An ingest's failure as the user's reason: an {@link IngestError} as it is, a file-system error
 * (ENOENT, EISDIR, EACCES, EIO...) as one about the user's file or the stored upload, not DuckDB;
 * undefined for anything else.
 */
export function fileErrorReason(err: unknown, inPlace: boolean, filePath: string, fileName: string): IngestError | undefined {
  if (err instanceof IngestError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new IngestError(inPlace ? `${filePath} is missing (was it moved or deleted?)` : `the uploaded file for ${fileName} is missing; upload it again`);
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return new IngestError(inPlace ? `${filePath} could not be read (${code})` : `the uploaded file for ${fileName} could not be read (${code}); upload it again`);
  return undefined;
}
