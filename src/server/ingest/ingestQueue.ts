/**
 * Processes data sources in the background, a couple at a time: `invalid` (awaiting) ->
 * `synching` -> `synched`, or back to `invalid` with `error` saying why. Each attempt is counted
 * in the metadata before it starts, so a source whose processing keeps killing the service is
 * eventually given up on instead of crash-looping on every restart.
 */
import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource, ReadProgress } from '../../shared/domain';
import { IngestError, type DataStore, type IngestOptions, type IngestResult } from '../engine';
import type { DataPaths } from '../state/dataPaths';
import type { Logger, MetaStore } from '../state/metaStore';
import { recordCache, toDataSource, type SourceRecord } from '../state/records';
import { InPlaceWatcher } from './inPlaceWatcher';
import { checkInPlacePath, stampChanged } from './readRoots';
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
  /** Real paths of the folders whose files may be read in place. */
  readRoots?: readonly string[];
  /** Read in place files that have other hard links too (see readRoots.ts). */
  readHardLinks?: boolean;
  /**
   * Told of every in-place source read, with what the read made, once its columnar copy is written
   * (or was not kept): the engine prepares for questions.
   */
  onRead?: (source: DataSource, result: IngestResult) => void;
}

function movedOrDeleted(fileName: string, path: string): string {
  return `${fileName} was moved or deleted: ${path} no longer exists. Put it back, or delete this data source and add the file from where it is now`;
}

export class IngestQueue {
  private readonly waiting: string[] = [];
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly concurrency: number;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  /** Callers waiting for one source to be processed (a job waiting for an edited file's re-read). */
  private readonly sourceWaiters = new Map<string, Array<() => void>>();
  readonly watcher: InPlaceWatcher;
  /** How far each running read has got (bytes of the file), for the sources' `progress`. */
  private readonly progress = new Map<string, ReadProgress>();
  /** Columnar copies being written after their reads, to stop on delete, re-read and close. */
  private readonly copies = new Map<string, AbortController>();

  constructor(private readonly o: IngestQueueOptions) {
    this.concurrency = Math.max(1, o.concurrency ?? 2);
    this.watcher = new InPlaceWatcher((id) => void this.resyncIfChanged(id));
  }

  /** How far the running read of a source has got, if one is running and DuckDB has reported. */
  /** Whether a source is being read or waits to be (a shared service does not stop then). */
  get busy(): boolean {
    return this.running.size > 0 || this.waiting.length > 0;
  }

  progressOf(id: string): ReadProgress | undefined {
    const p = this.progress.get(id);
    return p === undefined ? undefined : { ...p };
  }

  /** The ingest option that records a read's progress against the file's size. */
  private tracking(id: string, totalBytes: number | undefined): IngestOptions {
    if (totalBytes === undefined || totalBytes <= 0) return {};
    return {
      onProgress: (fraction, rows) => this.progress.set(id, { readBytes: Math.round(fraction * totalBytes), totalBytes, ...(rows !== undefined ? { rowsRead: rows } : {}) }),
    };
  }

  /**
   * Before a job: in-place sources whose file changed (size or modification time) since it was read
   * are read again, and the job waits for that, so it never answers from the previous version.
   * A file that is gone turns its source `invalid` with the reason.
   */
  async freshen(recs: readonly SourceRecord[]): Promise<void> {
    const waits: Array<Promise<void>> = [];
    const waitedOn: SourceRecord[] = [];
    for (const rec of recs) {
      if (rec.origin.kind !== 'path') continue;
      if (this.waiting.includes(rec.id) || this.running.has(rec.id)) {
        waits.push(this.settled(rec.id));
        waitedOn.push(rec);
        continue;
      }
      if (await this.worthReading(rec)) {
        this.enqueue(rec.id);
        waits.push(this.settled(rec.id));
        waitedOn.push(rec);
      }
    }
    await Promise.all(waits);
    // A read may have opened the file before the last edit (or its deletion) and still succeed; the
    // file is checked once more after it, so a job never runs on what is no longer there.
    const again: Array<Promise<void>> = [];
    for (const rec of waitedOn) {
      if (!this.waiting.includes(rec.id) && !this.running.has(rec.id) && (await this.worthReading(rec))) {
        this.enqueue(rec.id);
        again.push(this.settled(rec.id));
      }
    }
    await Promise.all(again);
  }

  /** Whether an in-place source's file differs from what was read (or is gone). */
  private async changed(rec: SourceRecord): Promise<boolean> {
    if (rec.origin.kind !== 'path') return false;
    const now = await stat(rec.origin.path).catch(() => undefined);
    return now === undefined || stampChanged(rec.stamp, { size: now.size, mtimeMs: now.mtimeMs });
  }

  /** The watcher saw the file move: read it again if it really changed. */
  private async resyncIfChanged(id: string): Promise<void> {
    const rec = this.o.meta.sources.get(id);
    if (rec === undefined || this.closed || this.waiting.includes(id) || this.running.has(id)) return;
    if (await this.worthReading(rec)) this.enqueue(id);
  }

  /** A read source whose file changed, or a source whose file was missing and is back. */
  private async worthReading(rec: SourceRecord): Promise<boolean> {
    if (rec.origin.kind !== 'path') return false;
    if (rec.status === 'synched') return this.changed(rec);
    return rec.status === 'invalid' && rec.error !== undefined && (await stat(rec.origin.path).catch(() => undefined)) !== undefined;
  }

  /** Resolves once the source is neither waiting nor being processed. */
  private settled(id: string): Promise<void> {
    if (!this.waiting.includes(id) && !this.running.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.sourceWaiters.get(id) ?? [];
      list.push(resolve);
      this.sourceWaiters.set(id, list);
    });
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
    this.watcher.unwatch(sourceId);
    this.copies.get(sourceId)?.abort();
    const i = this.waiting.indexOf(sourceId);
    if (i >= 0) this.waiting.splice(i, 1);
    this.wakeSource(sourceId);
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
    this.watcher.close();
    for (const c of this.copies.values()) c.abort();
    for (const id of this.waiting.splice(0)) this.wakeSource(id);
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
        if (!this.waiting.includes(id)) this.wakeSource(id);
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

  private wakeSource(id: string): void {
    const list = this.sourceWaiters.get(id);
    this.sourceWaiters.delete(id);
    for (const w of list ?? []) w();
  }

  /** Reads an in-place source's file where it is, after checking it is still a file under the roots. */
  private async processInPlace(rec: SourceRecord, path: string, signal: AbortSignal): Promise<IngestResult> {
    const check = await checkInPlacePath(path, this.o.readRoots ?? [], { hardLinks: this.o.readHardLinks === true });
    if (!check.ok) throw new IngestError(check.missing ? movedOrDeleted(rec.fileName, path) : `${rec.fileName} can no longer be read in place: ${check.reason}`);
    this.watcher.watch(rec.id, path);
    const read = await this.o.store.ingest(toDataSource(rec), check.real, signal, { inPlace: true, ...this.tracking(rec.id, check.stamp.size) }).catch(async (e: unknown) => {
      // Gone during the read: say so, not what DuckDB made of the missing file.
      if (!signal.aborted && (await stat(path).catch(() => undefined)) === undefined) throw new IngestError(movedOrDeleted(rec.fileName, path));
      throw e;
    });
    recordRows(rec, read);
    // The stamp taken before reading: an edit during the read shows up as a change next time.
    rec.stamp = check.stamp;
    rec.size = check.stamp.size;
    return read;
  }

  /**
   * After an in-place read, with the source already synched: its columnar copy is written in the
   * background (the store swaps the source to it), the copy's size is recorded for the Datasets
   * view, and only then is the engine told (its question index then reads the copy).
   */
  private copyAfterRead(id: string, read: IngestResult, stamp: SourceRecord['stamp']): void {
    const { meta, store } = this.o;
    this.copies.get(id)?.abort();
    const abort = new AbortController();
    this.copies.set(id, abort);
    const copy = store.writeCopy?.(id, { signal: abort.signal, ...(stamp !== undefined ? { stamp } : {}) }) ?? Promise.resolve(undefined);
    void copy.then(async (copied) => {
      if (this.copies.get(id) === abort) this.copies.delete(id);
      const rec = meta.sources.get(id);
      if (abort.signal.aborted || this.closed || rec === undefined || rec.status !== 'synched') return;
      if (copied !== undefined) {
        recordCache(rec, copied);
        await meta.save();
      }
      this.o.onRead?.({ ...toDataSource(rec), status: 'synched' }, copied ?? read);
    }).catch((e: unknown) => this.o.log('error', `recording a data source's columnar copy failed: ${String(e)}`));
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
      // Ingestion replaces whatever an earlier attempt left, in one transaction (catalog.replaceSource).
      this.copies.get(id)?.abort();
      let inPlaceRead: IngestResult | undefined;
      if (rec.origin.kind === 'path') inPlaceRead = await this.processInPlace(rec, rec.origin.path, signal);
      else if (rec.file === undefined) throw new IngestError('the file of this data source is missing');
      else recordRows(rec, await store.ingest(toDataSource(rec), join(paths.root, rec.file), signal, this.tracking(rec.id, rec.size)));
      if (signal.aborted) throw signal.reason;
      if (!meta.sources.has(id)) return;
      rec.status = 'synched';
      rec.attempts = 0;
      // Started before the save, in the same turn: a question asked once the source shows synched
      // finds the copy pending and its index waits for it.
      if (inPlaceRead !== undefined) this.copyAfterRead(id, inPlaceRead, rec.stamp);
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
      delete rec.cacheBytes;
      await meta.save();
    } finally {
      clearTimeout(timer);
      this.progress.delete(id);
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
      // Files read in place may have been edited, moved or deleted while the service was stopped.
      if (rec.origin.kind === 'path' && (rec.status === 'synched' || rec.error !== undefined)) {
        this.watcher.watch(rec.id, rec.origin.path);
        if (await this.worthReading(rec)) this.enqueue(rec.id);
        continue;
      }
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

/** Keeps the rows a read produced on the record (table sources), and its cache's size, so callers see them. */
function recordRows(rec: SourceRecord, result: IngestResult): void {
  if (result.kind === 'tables') rec.rows = result.tables.reduce((n, t) => n + t.rowCount, 0);
  else delete rec.rows;
  recordCache(rec, result);
}

