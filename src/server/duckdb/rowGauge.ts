/**
 * How many rows a running read has got through, for the progress the Datasets view shows
 * ("reading 412 MB of 1.0 GB (40%) · about 7.1M rows"). DuckDB's own count is in rows only for
 * Parquet; for a CSV it counts in units of its own (26.9 M for a 17.4 M-row file). So a text file's
 * rows are estimated from the share read and the average line length of chunks seen by a pass that
 * reads the file anyway (the line-length check, the gzip scan); the wording says "about".
 */
import { stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestOptions } from '../engine';

/** Every how many chunks one is counted: a sample across the whole file at a small cost. */
const SAMPLE_EVERY = 4;

/** Average line length of a text file, from a sample of the chunks a pass over it sees. */
export class LineSampler {
  private chunks = 0;
  private bytes = 0;
  private lines = 0;

  /** Sees one chunk of the file, in order; counts the line ends of every {@link SAMPLE_EVERY}th. */
  readonly observe = (chunk: Buffer): void => {
    if (this.chunks++ % SAMPLE_EVERY !== 0) return;
    let n = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) n++;
    this.bytes += chunk.length;
    this.lines += n;
  };

  /** Bytes per line so far, or undefined before a line end was seen. */
  bytesPerLine(): number | undefined {
    return this.lines > 0 ? this.bytes / this.lines : undefined;
  }
}

/**
 * A chunk check (line lengths, JSON depth) that also feeds `sampler`, for a pass that reads the file
 * anyway: the gzip scan, or the check before or beside DuckDB's read.
 */
export function sampling(check: (chunk: Buffer) => void, sampler: LineSampler): (chunk: Buffer) => void {
  return (chunk) => {
    check(chunk);
    sampler.observe(chunk);
  };
}

/** The text DuckDB reads, in bytes: the inflated size of a gzip file, else the file's size. */
export async function textBytes(path: string, inflated: number | undefined): Promise<number | undefined> {
  return inflated ?? (await stat(path).catch(() => undefined))?.size;
}

/** Rows read so far, from DuckDB's share of the file read and its count of rows processed. */
export type RowsAt = (fraction: number, processed: number) => number | undefined;

/**
 * Filled in by a format's reader once it knows how to count (set before DuckDB starts), read by the
 * store's progress watch. Stays silent when the reader cannot say.
 */
export class RowGauge {
  private estimate: RowsAt | undefined;

  /** Parquet: DuckDB counts real rows. */
  countedByDuckDb(): void {
    this.estimate = (_fraction, processed) => (processed >= 0 ? processed : undefined);
  }

  /** Text with one row per line after `headerLines`: rows from the share of `totalBytes` read. */
  fromLines(sampler: LineSampler, totalBytes: number, headerLines: number): void {
    this.estimate = (fraction) => {
      const perLine = sampler.bytesPerLine();
      if (perLine === undefined) return undefined;
      return Math.max(0, Math.round((fraction * totalBytes) / perLine) - headerLines);
    };
  }

  rowsAt(fraction: number, processed: number): number | undefined {
    const rows = this.estimate?.(fraction, processed);
    return rows !== undefined && Number.isFinite(rows) ? rows : undefined;
  }
}

/** How often a running ingest's progress is read from DuckDB. */
const PROGRESS_EVERY_MS = 250;
/**
 * Reports the share of the file DuckDB's running statement has read (DuckDB tracks it per
 * connection; -1 until a statement has run for a moment). Each statement of an ingest starts again
 * from 0, so the share reported never goes back: a later check pass does not undo the first read.
 */
export function watchProgress(conn: DuckDBConnection, report: IngestOptions['onProgress'], gauge: RowGauge): ReturnType<typeof setInterval> | undefined {
  if (report === undefined) return undefined;
  let best = 0;
  let rows = 0;
  const timer = setInterval(() => {
    const p = conn.progress;
    const share = p.percentage / 100;
    if (Number.isFinite(share) && share > best) {
      best = Math.min(1, share);
      rows = Math.max(rows, gauge.rowsAt(best, Number(p.rows_processed)) ?? 0);
      report(best, rows > 0 ? rows : undefined);
    }
  }, PROGRESS_EVERY_MS);
  timer.unref();
  return timer;
}
