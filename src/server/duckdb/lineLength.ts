/**
 * Lines longer than DuckDB's CSV reader accepts (2,000,000 bytes by default) are refused before
 * DuckDB sees the file: DuckDB ends with an error anyway, but only after 20-40 s per attempt on a
 * 40 MB line (its time grows with the line's length), long enough to hit the ingest's budget.
 */
import { createReadStream } from 'node:fs';
import { IngestError } from '../engine';

/** DuckDB's default `max_line_size`. */
export const MAX_LINE_BYTES = 2_000_000;

/** Bytes read at a time; below {@link MAX_LINE_BYTES}, so a line inside one chunk is never too long. */
const CHUNK = 1024 * 1024;

/**
 * A check fed the file's bytes chunk by chunk (chunks of at most `max` bytes) that throws an
 * {@link IngestError} as soon as a line is longer than `max` bytes. Only a run that spans two
 * chunks needs counting: a line that starts and ends inside one chunk is shorter than the chunk, so
 * each chunk costs two native searches, not one per line. Gzip files feed it their inflated bytes.
 */
export function lineLengthGuard(fileName: string, label: string, max = MAX_LINE_BYTES): (chunk: Buffer) => void {
  let run = 0;
  return (chunk) => {
    const first = chunk.indexOf(10);
    run += first < 0 ? chunk.length : first;
    if (run > max) {
      throw new IngestError(`could not read ${fileName} as ${label}: a line is longer than ${Math.round(max / 1e6)} MB, which no table row needs (is one cell holding a whole document, or are the line ends missing?)`);
    }
    if (first >= 0) run = chunk.length - chunk.lastIndexOf(10) - 1;
  };
}

/**
 * Throws an {@link IngestError} naming the problem when a line of the file is longer than `max` bytes.
 * `observe` sees every chunk that passed the check (rowGauge.ts samples line lengths from them).
 */
export async function checkLineLengths(path: string, fileName: string, label: string, signal: AbortSignal, max = MAX_LINE_BYTES, observe?: (chunk: Buffer) => void): Promise<void> {
  const check = lineLengthGuard(fileName, label, max);
  const stream = createReadStream(path, { highWaterMark: Math.min(CHUNK, max), signal });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      check(chunk);
      observe?.(chunk);
    }
  } finally {
    stream.destroy();
  }
}
