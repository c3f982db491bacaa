/**
 * Processes data sources in the background, a couple at a time: `invalid` (awaiting) ->
 * `synching` -> `synched`, or back to `invalid` with `error` saying why. Each attempt is counted
 * in the metadata before it starts, so a source whose processing keeps killing the service is
 * eventually given up on instead of crash-looping on every restart.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { IngestError, type DataStore } from '../engine';
import type { DataPaths } from '../state/dataPaths';
import type { Logger, MetaStore } from '../state/metaStore';
import { toDataSource, type SourceRecord } from '../state/records';
import { DownloadError, downloadToFile } from './urlDownload';

/**
 * Attempts (including ones cut short by a crash) before a source is marked failed: a crash may be
 * someone's kill -9 and earns one retry; a second one means the file itself takes the service down.
 */
export const MAX_INGEST_ATTEMPTS = 2;

/** Time one source may take to process: two minutes plus a minute per 600 MB. */
export function ingestBudgetMs(sizeBytes: number | undefined): number {
  return 120_000 + Math.ceil((sizeBytes ?? 0) / (10 * 1024 * 1024)) * 1_000;
}

export interface IngestQueueOptions {
  meta: MetaStore;
  store: DataStore;
  paths: DataPaths;
  log: Logger;
  concurrency?: number;
  maxDownloadBytes: number;
  /** Fetch `url` sources from private networks and loopback too (opt-in). */
  allowPrivateNetworks?: boolean;
  /** Overrides {@link ingestBudgetMs} (tests). */
  budgetMs?: number;
}

export class IngestQueue {
  private readonly waiting: string[] = [];
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly concurrency: number;
  private closed = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly o: IngestQueueOptions) {
    this.concurrency = Math.max(1, o.concurrency ?? 2);
  }

  /** Source file path (relative to the data dir) for a record. */
  static fileFor(r: SourceRecord): string {
    return join('sources', `${r.id}${r.ext}`);
  }

  enqueue(sourceId: string): void {
    if (this.closed || this.waiting.includes(sourceId) || this.running.has(sourceId)) return;
    this.waiting.push(sourceId);
    this.pump();
  }

  /** Stops processing of one source (deleted); resolves when its in-flight work has settled. */
  async cancel(sourceId: string): Promise<void> {
    const i = this.waiting.indexOf(sourceId);
    if (i >= 0) this.waiting.splice(i, 1);
    const r = this.running.get(sourceId);
    if (r) {
      r.abort.abort();
      await r.done;
    }
  }

  /** Resolves when nothing is waiting or running (tests and shutdown). */
  idle(): Promise<void> {
    if (this.waiting.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Aborts in-flight work; interrupted sources stay queued on disk and resume on next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    const all = [...this.running.values()];
    for (const r of all) r.abort.abort();
    await Promise.all(all.map((r) => r.done));
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift() as string;
      const abort = new AbortController();
      const done = this.process(id, abort.signal).catch((e: unknown) => {
        this.o.log('error', `ingestion bookkeeping failed for a data source: ${String(e)}`);
      }).finally(() => {
        this.running.delete(id);
        this.pump();
      });
      this.running.set(id, { abort, done });
    }
    if (this.waiting.length === 0 && this.running.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async process(id: string, stop: AbortSignal): Promise<void> {
    const { meta, store, paths, log } = this.o;
    const rec = meta.sources.get(id);
    if (!rec) return;
    rec.status = 'synching';
    delete rec.error;
    rec.attempts += 1;
    await meta.save();
    // A file that takes longer than its budget is stopped and failed, never left running forever.
    const budgetMs = this.o.budgetMs ?? ingestBudgetMs(rec.size);
    const overtime = new AbortController();
    const timer = setTimeout(() => overtime.abort(), budgetMs);
    const signal = AbortSignal.any([stop, overtime.signal]);
    try {
      if (rec.file === undefined && rec.origin.kind === 'url') {
        const rel = IngestQueue.fileFor(rec);
        const part = join(paths.root, `${rel}.part`);
        rec.size = await downloadToFile(rec.origin.url, part, { maxBytes: this.o.maxDownloadBytes, signal, policy: { allowPrivateNetworks: this.o.allowPrivateNetworks === true } });
        await rename(part, join(paths.root, rel));
        rec.file = rel;
        await meta.save();
      }
      if (rec.file === undefined) throw new IngestError('the file of this data source is missing');
      // Ingestion replaces whatever an earlier attempt left, in one transaction (catalog.replaceSource).
      await store.ingest(toDataSource(rec), join(paths.root, rec.file), signal);
      if (signal.aborted) throw signal.reason;
      if (!meta.sources.has(id)) return;
      rec.status = 'synched';
      rec.attempts = 0;
      await meta.save();
    } catch (e) {
      if (stop.aborted) {
        if (meta.sources.has(id)) {
          // Shutdown, not failure: leave it awaiting processing and do not count the attempt.
          rec.status = 'invalid';
          rec.attempts = Math.max(0, rec.attempts - 1);
          await meta.save();
        }
        return;
      }
      if (!meta.sources.has(id)) return;
      rec.status = 'invalid';
      if (overtime.signal.aborted) rec.error = `reading this file took longer than ${Math.round(budgetMs / 1000)} s and was stopped; split it or export fewer columns and add it again`;
      else if (e instanceof IngestError || e instanceof DownloadError) rec.error = e.message;
      else {
        log('error', `processing a data source failed unexpectedly: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
        rec.error = 'processing failed unexpectedly; see the local service log';
      }
      await store.drop(id).catch(() => undefined);
      await meta.save();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * After a crash: sources that were processing (or waiting) are retried, unless they already
   * used up their attempts, in which case they are marked failed with a reason.
   */
  async recover(): Promise<void> {
    const { meta, store, log } = this.o;
    let changed = false;
    for (const rec of meta.sources.values()) {
      const pending = rec.status === 'synching' || (rec.status === 'invalid' && rec.error === undefined);
      if (!pending) continue;
      if (rec.attempts >= MAX_INGEST_ATTEMPTS) {
        rec.status = 'invalid';
        rec.error = `reading this file stopped the local service ${rec.attempts} times (a crash or a forced stop), so it is not tried again; check the file, then delete this data source and add it again`;
        await store.drop(rec.id).catch(() => undefined);
        changed = true;
        log('warn', `gave up on a data source after ${rec.attempts} interrupted attempts`);
        continue;
      }
      if (rec.status === 'synching') {
        rec.status = 'invalid';
        changed = true;
      }
      this.enqueue(rec.id);
    }
    if (changed) await meta.save();
  }
}
