/**
 * How deeply a JSON file nests, read as bytes before DuckDB sees the file. DuckDB's JSON reader
 * recurses per level: 100,000 levels overflow its stack and kill the process, and a few thousand
 * take minutes of CPU. Real exports nest a handful of levels, so a file deeper than the limit is
 * refused with a clear reason instead.
 */
import { createReadStream } from 'node:fs';
import { IngestError } from '../engine';

/** Deepest nesting of objects and arrays accepted. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A check fed the file's bytes chunk by chunk that throws an {@link IngestError} when brackets
 * outside strings nest deeper than `max` (strings and escapes tracked from one chunk to the next).
 * Gzip files feed it their inflated bytes.
 */
export function jsonDepthGuard(fileName: string, max = MAX_JSON_DEPTH): (chunk: Buffer) => void {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (++depth > max) {
          throw new IngestError(`${fileName} nests objects or arrays more than ${max} levels deep; flatten it (or export the inner records) and add it again`);
        }
      } else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && depth > 0) depth--;
    }
  };
}

/** Throws an {@link IngestError} when the file nests deeper than `max`. Reads it once in 1 MiB chunks; honours `signal`. */
export async function checkJsonDepth(path: string, fileName: string, signal: AbortSignal, max = MAX_JSON_DEPTH, observe?: (chunk: Buffer) => void): Promise<void> {
  const check = jsonDepthGuard(fileName, max);
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
