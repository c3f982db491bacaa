/**
 * Lines longer than DuckDB's CSV reader accepts (2,000,000 bytes by default) are refused before
 * DuckDB sees the file: DuckDB ends with an error anyway, but only after 20-40 s per attempt on a
 * 40 MB line (its time grows with the line's length), long enough to hit the ingest's budget.
 */
import { createReadStream } from 'node:fs';
import { IngestError } from '../engine';

/** DuckDB's default `max_line_size`. */
export const MAX_LINE_BYTES = 2_000_000;

/** Throws an {@link IngestError} naming the problem when a line of the file is longer than `max` bytes. */
export async function checkLineLengths(path: string, fileName: string, label: string, signal: AbortSignal, max = MAX_LINE_BYTES): Promise<void> {
  let run = 0;
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024, signal });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      run += (nl < 0 ? chunk.length : nl) - from;
      if (run > max) {
        stream.destroy();
        throw new IngestError(`could not read ${fileName} as ${label}: a line is longer than ${Math.round(max / 1e6)} MB, which no table row needs (is one cell holding a whole document, or are the line ends missing?)`);
      }
      if (nl < 0) break;
      run = 0;
      from = nl + 1;
    }
  }
}
