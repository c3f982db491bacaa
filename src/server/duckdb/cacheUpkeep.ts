/**
 * Keeping the cache folder (inPlaceCache.ts) in step with the catalog: a copy exists only while a
 * source's entry records it. Copies are swept after every read of a source (the previous read's, or
 * a failed read's), when a source is dropped, and when the store opens (a crash between a copy and
 * its commit); a copy whose file changed is dropped when the source is described.
 */
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestResult } from '../engine';
import { catalogSources, forgetCaches, readCatalog, recordedCaches } from './catalog';
import { cacheHolds, isCacheOf, removeCaches } from './inPlaceCache';
import { tablePrefixFor } from './sqlText';

/** Paths of the copies an entry records. */
function copiesOf(result: IngestResult | undefined): string[] {
  return result?.kind === 'tables' ? result.tables.flatMap((t) => (t.cache !== undefined ? [t.cache.path] : [])) : [];
}

/** Removes the source's copies that its catalog entry does not record. */
export async function sweepSourceCaches(conn: DuckDBConnection, dir: string, sourceId: string): Promise<void> {
  const kept = new Set(copiesOf(await readCatalog(conn, sourceId)));
  const prefix = tablePrefixFor(sourceId);
  await removeCaches(dir, (name) => isCacheOf(name, prefix) && !kept.has(join(dir, name)));
}

/**
 * At open: removes the copies no entry records; with copies turned off (`keep` false), every
 * source's views are first put back over their files, so none reads a copy any more.
 */
export async function tidyCaches(conn: DuckDBConnection, dir: string, keep: boolean): Promise<void> {
  if (!keep) {
    for (const id of await catalogSources(conn)) {
      const result = await readCatalog(conn, id);
      if (result !== undefined && copiesOf(result).length > 0) await forgetCaches(conn, id, result);
    }
  }
  const recorded = await recordedCaches(conn);
  await removeCaches(dir, (name) => !recorded.has(join(dir, name)));
}

/**
 * The source's entry with every copy checked against its file: a copy whose file changed size or
 * modification time since it was copied (or that is gone) is dropped, and the view reads the file
 * again. A job then never answers from a copy of what the file no longer holds, even before the
 * changed file is read again. Returns `result` itself when every copy holds.
 */
export async function checkedCaches(result: IngestResult, sourceId: string, dir: string, onConnection: <T>(fn: (conn: DuckDBConnection) => Promise<T>) => Promise<T>): Promise<IngestResult> {
  if (result.kind !== 'tables' || result.tables.every((t) => t.cache === undefined)) return result;
  const holds = await Promise.all(result.tables.map((t) => (t.cache === undefined ? true : cacheHolds(t.cache))));
  if (holds.every(Boolean)) return result;
  return onConnection(async (conn) => {
    const out = await forgetCaches(conn, sourceId, result);
    await sweepSourceCaches(conn, dir, sourceId);
    return out;
  });
}

/** Bytes of a source's copies (0 when it has none). */
export function cacheBytesOf(result: IngestResult | undefined): number {
  return result?.kind === 'tables' ? result.tables.reduce((n, t) => n + (t.cache?.bytes ?? 0), 0) : 0;
}
