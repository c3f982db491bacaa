/**
 * Export of a view (its filters and sort) to CSV or Parquet with DuckDB's COPY, into a hidden
 * temporary file beside the target that is renamed over it only once COPY has finished: a cancelled
 * or failed export leaves no file behind, not even a partial one. Progress is DuckDB's own, read from
 * a connection that tracks it; a cancel interrupts the COPY.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DuckDbStore } from '../duckdb/duckDbStore';
import { quoteLiteral } from '../duckdb/sqlText';

export type ExportFormat = 'csv' | 'parquet';

const PROGRESS_EVERY_MS = 200;

/** Writes `select` to `to`; returns the rows written. */
export async function exportRows(store: DuckDbStore, select: string, format: ExportFormat, to: string, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<number> {
  const tmp = join(dirname(to), `.${basename(to)}.${randomBytes(6).toString('hex')}.part`);
  const options = format === 'csv' ? '(FORMAT csv, HEADER true)' : '(FORMAT parquet)';
  try {
    const rows = await store.work(async (conn) => {
      const timer = setInterval(() => {
        const share = conn.progress.percentage / 100;
        if (Number.isFinite(share) && share > 0) onProgress(Math.min(1, share));
      }, PROGRESS_EVERY_MS);
      timer.unref();
      try {
        const r = await conn.runAndReadAll(`COPY (${select}) TO ${quoteLiteral(tmp)} ${options}`);
        return Number(r.getRows()[0]?.[0] ?? 0);
      } finally {
        clearInterval(timer);
      }
    }, { signal, tracked: true });
    signal.throwIfAborted();
    await rename(tmp, to);
    onProgress(1);
    return rows;
  } finally {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
