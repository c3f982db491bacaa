/**
 * Writes the columnar copy of a CSV read in place (inPlaceCache.ts) after its read, in the
 * background: the read, and so the overview answered from its statistics, never waits for the copy.
 * Once the copy is written and the file still has the stamp it had before, the source's view is
 * swapped to the copy in a transaction that also records it in the source's entry (catalog.ts
 * adoptCache), and only while that entry is still the read that was copied.
 *
 * One copy runs per source. Its promise is what the question index waits for (a question asked
 * meanwhile must not scan the CSV beside the copy on the same 2 cores); it always resolves, with the
 * entry as it now is, or undefined when no copy was kept (failed, too large, stopped, stale). A
 * re-read or a drop of the source stops the copy and waits for it to settle ({@link CopyWriter.forget}),
 * so a stale copy is never swapped in and none is left behind.
 */
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnInfo, IngestResult } from '../engine';
import { adoptCache } from './catalog';
import { cacheHolds, writeCache } from './inPlaceCache';
import { armInterrupts } from './queryRunner';

/** What a read left to copy: its view, the view's SELECT over the file, and the read's version. */
export interface CopyPlan {
  table: string;
  select: string;
  file: string;
  version: number;
  columns: ColumnInfo[];
}

export interface CopyWriterDeps {
  dir: string;
  maxShare: number | undefined;
  minBytes: number | undefined;
  onConnection: <T>(fn: (conn: DuckDBConnection) => Promise<T>) => Promise<T>;
  /** Runs `fn` under the source's lock (no ingest, drop or describe of it meanwhile). */
  underLock: <T>(sourceId: string, fn: () => Promise<T>) => Promise<T>;
  /** The source's entry now records the copy. */
  adopted: (sourceId: string, result: IngestResult) => void;
}

export interface CopyOptions {
  signal?: AbortSignal;
  /** The file's size and modification time when it was read: a file that no longer has them is not copied. */
  stamp?: { size: number; mtimeMs: number };
}

export class CopyWriter {
  private readonly plans = new Map<string, CopyPlan>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<IngestResult | undefined> }>();

  constructor(private readonly d: CopyWriterDeps) {}

  /** A read of the source left this view to copy (replacing any earlier plan). */
  plan(sourceId: string, plan: CopyPlan): void {
    this.plans.set(sourceId, plan);
  }

  /** Stops the source's copy in progress, forgets its plan, and resolves once the copy has settled. */
  async forget(sourceId: string): Promise<void> {
    this.plans.delete(sourceId);
    const r = this.running.get(sourceId);
    if (r === undefined) return;
    r.abort.abort();
    await r.done;
  }

  /** Stops every copy (the store is closing). */
  stopAll(): void {
    this.plans.clear();
    for (const r of this.running.values()) r.abort.abort();
  }

  /** Whether a copy of the source is being written. */
  pending(sourceId: string): boolean {
    return this.running.has(sourceId);
  }

  /** Resolves when no copy of these sources is being written (or when `signal` aborts). */
  async settled(sourceIds: readonly string[], signal?: AbortSignal): Promise<void> {
    const waits = sourceIds.flatMap((id) => {
      const r = this.running.get(id);
      return r === undefined ? [] : [r.done];
    });
    if (waits.length === 0 || signal?.aborted === true) return;
    await new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      signal?.addEventListener('abort', stop, { once: true });
      void Promise.all(waits).then(() => {
        signal?.removeEventListener('abort', stop);
        resolve();
      });
    });
  }

  /**
   * Writes the copy the source's last read planned, if any (the one already running otherwise).
   * Registered at once, so a question asked from now on waits for it. Never rejects.
   */
  write(sourceId: string, o: CopyOptions = {}): Promise<IngestResult | undefined> {
    const existing = this.running.get(sourceId);
    if (existing !== undefined) return existing.done;
    const plan = this.plans.get(sourceId);
    if (plan === undefined) return Promise.resolve(undefined);
    this.plans.delete(sourceId);
    const abort = new AbortController();
    const stop = (): void => abort.abort();
    o.signal?.addEventListener('abort', stop, { once: true });
    if (o.signal?.aborted === true) abort.abort();
    const done: Promise<IngestResult | undefined> = this.run(sourceId, plan, abort.signal, o.stamp).catch(() => undefined).finally(() => {
      o.signal?.removeEventListener('abort', stop);
      if (this.running.get(sourceId)?.done === done) this.running.delete(sourceId);
    });
    this.running.set(sourceId, { abort, done });
    return done;
  }

  private async run(sourceId: string, plan: CopyPlan, signal: AbortSignal, stamp: CopyOptions['stamp']): Promise<IngestResult | undefined> {
    if (signal.aborted) return undefined;
    const made = await this.d.onConnection(async (conn) => {
      const guard = armInterrupts(conn, signal, undefined);
      try {
        // Any failure (no room, out of memory, interrupted) just means no copy.
        return await writeCache(conn, plan.table, plan.columns, { dir: this.d.dir, file: plan.file, ...(this.d.maxShare !== undefined ? { maxShare: this.d.maxShare } : {}), ...(this.d.minBytes !== undefined ? { minBytes: this.d.minBytes } : {}) }, plan.table, stamp);
      } catch {
        return undefined;
      } finally {
        guard.dispose();
      }
    }).catch(() => undefined);
    if (made === undefined) return undefined;
    const cache = { ...made.cache, fileSelect: plan.select };
    let result: IngestResult | undefined;
    if (made.keep && !signal.aborted) {
      result = await this.d.underLock(sourceId, async () => {
        // The file must still be what was copied; a re-read or a drop stopped this copy (signal).
        if (signal.aborted || !(await cacheHolds(cache))) return undefined;
        return this.d.onConnection((conn) => adoptCache(conn, sourceId, plan.table, plan.version, cache));
      }).catch(() => undefined);
    }
    if (result === undefined) await rm(cache.path, { force: true }).catch(() => undefined);
    else this.d.adopted(sourceId, result);
    return result;
  }
}
