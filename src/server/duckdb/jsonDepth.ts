/**
 * How deeply a JSON file nests, and how long its records are, read as bytes before DuckDB sees the
 * file. DuckDB's JSON reader recurses per level: 100,000 levels overflow its stack and kill the
 * process, and a few thousand take minutes of CPU. Real exports nest a handful of levels, so a file
 * deeper than the limit is refused with a clear reason instead. A record (a JSON Lines line, an
 * element of a top-level array) of 500 MB took DuckDB 65 s and 5.5 GB before it failed, so records
 * longer than a table row ever needs are refused too, as CSV lines are (lineLength.ts).
 */
import { createReadStream } from 'node:fs';
import { IngestError } from '../engine';
import { formatBytes } from '../../shared/byteSize';

/** Deepest nesting of objects and arrays accepted. */
export const MAX_JSON_DEPTH = 64;
/** Longest record (JSON Lines line, element of a top-level array): DuckDB's own default object size. */
export const MAX_JSON_RECORD_BYTES = 16 * 1024 * 1024;
/** Longest top-level value that is not an array (a single document read as one record). */
export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

export interface JsonLimits {
  recordBytes?: number;
  documentBytes?: number;
  /** JSON Lines: every top-level value is a record, never a document. */
  lines?: boolean;
}

/**
 * A check fed the file's bytes chunk by chunk that throws an {@link IngestError} when brackets
 * outside strings nest deeper than `max`, or a record runs longer than its limit (strings and escapes
 * tracked from one chunk to the next). A record ends at a newline between top-level values (JSON
 * Lines), or at a comma or bracket of a top-level array; any other top-level value is one record,
 * a document, with a limit of its own. Gzip files feed it their inflated bytes.
 */
export function jsonDepthGuard(fileName: string, max = MAX_JSON_DEPTH, limits: JsonLimits = {}): (chunk: Buffer) => void {
  const recordMax = limits.recordBytes ?? MAX_JSON_RECORD_BYTES;
  const documentMax = limits.documentBytes ?? MAX_JSON_DOCUMENT_BYTES;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Bytes of the record read so far, and whether the top-level value being read is an array. */
  let run = 0;
  let topArray = false;
  const tooLong = (what: string, limit: number): IngestError =>
    new IngestError(`could not read ${fileName} as JSON: ${what} is longer than ${formatBytes(limit)}, which no table row needs (is one value holding a whole document, or are the line ends missing?)`);
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      run++;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (depth === 0) {
          topArray = b === OPEN_ARRAY;
          if (topArray) run = 0;
        }
        if (++depth > max) {
          throw new IngestError(`${fileName} nests objects or arrays more than ${max} levels deep; flatten it (or export the inner records) and add it again`);
        }
      } else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && depth > 0) {
        if (--depth === 0) run = 0;
      } else if ((depth === 0 && b === NEWLINE) || (depth === 1 && topArray && b === COMMA)) run = 0;
      // Checked as it grows (a record with no end is refused after the limit, not at the end of the
      // file); the byte that closes a record was counted before `run` went back to 0.
      const isRecord = depth === 0 || topArray || limits.lines === true;
      if (run > (isRecord ? recordMax : documentMax)) throw tooLong(isRecord ? 'a record' : 'its one document', isRecord ? recordMax : documentMax);
    }
  };
}

/** Throws an {@link IngestError} when the file nests deeper than `max` or a record is too long. Reads it once in 1 MiB chunks; honours `signal`. */
export async function checkJsonDepth(path: string, fileName: string, signal: AbortSignal, max = MAX_JSON_DEPTH, observe?: (chunk: Buffer) => void, limits: JsonLimits = {}): Promise<void> {
  const check = jsonDepthGuard(fileName, max, limits);
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024, signal });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      check(chunk);
      observe?.(chunk);
    }
  } finally {
    stream.destroy();
  }
}
