/**
 * What a data source is doing, in the words the Datasets view and the progress notifications share:
 * "reading 412 MB of 1.0 GB (41%) · about 7.1M rows" while the local service reads a file, the rows
 * once it is ready.
 */
import { formatBytes } from './byteSize';
import type { DataSource } from './domain';

const ROWS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** Rows read so far are an estimate: two significant digits ("about 7.1M rows"). */
const ABOUT_ROWS = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 2 });

/** Progress of a running read, or undefined when the service has not reported any. */
export function readingText(ds: DataSource): string | undefined {
  const p = ds.progress;
  if (ds.status !== 'synching' || p === undefined) return undefined;
  const pct = Math.floor((p.readBytes / p.totalBytes) * 100);
  const rows = p.rowsRead !== undefined && p.rowsRead > 0 ? ` · about ${ABOUT_ROWS.format(p.rowsRead)} ${p.rowsRead === 1 ? 'row' : 'rows'}` : '';
  return `${ds.rereading === true ? 're-reading' : 'reading'} ${formatBytes(p.readBytes)} of ${formatBytes(p.totalBytes)} (${pct}%)${rows}`;
}

/** The share of the file read so far (0..1), when known. */
export function readFraction(ds: DataSource): number | undefined {
  const p = ds.progress;
  return ds.status === 'synching' && p !== undefined ? Math.min(1, p.readBytes / p.totalBytes) : undefined;
}

/** `17,430,000 rows` for a ready table source, when the service says. */
export function rowsText(ds: DataSource): string | undefined {
  return ds.status === 'synched' && ds.rows !== undefined ? `${ROWS.format(ds.rows)} ${ds.rows === 1 ? 'row' : 'rows'}` : undefined;
}
