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

/** The columnar cache's size as a share of the file: `6%`, `<1%` (undefined without a cache or a size). */
function cacheShare(ds: DataSource): string | undefined {
  if (ds.status !== 'synched' || ds.cacheBytes === undefined || ds.size === undefined || ds.size <= 0) return undefined;
  const pct = (100 * ds.cacheBytes) / ds.size;
  return pct < 1 ? '<1%' : `${Math.round(pct)}%`;
}

/** `cached, 6% of the file` for a CSV read in place that the service answers from a columnar copy. */
export function cacheText(ds: DataSource): string | undefined {
  const share = cacheShare(ds);
  return share === undefined ? undefined : `cached, ${share} of the file`;
}

/** The longer account of the cache, for a tooltip. */
export function cacheDetail(ds: DataSource): string | undefined {
  const share = cacheShare(ds);
  if (share === undefined || ds.cacheBytes === undefined) return undefined;
  return `answered from a columnar cache in the service's data folder: ${formatBytes(ds.cacheBytes)} (${share} of the file), dropped when the file changes`;
}
