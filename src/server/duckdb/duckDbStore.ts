/**
 * The local service's data store: one DuckDB database file in the data directory holding a table per
 * ingested file (per sheet for workbooks), the text of text sources, and a catalog of what each
 * source produced. Implements {@link DataStore} for the HTTP layer and offers {@link DuckDbStore.query}
 * to analysis engines.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { DataSource } from '../../shared/domain';
import { IngestError, type DataStore, type IngestOptions, type IngestResult } from '../engine';
import { cacheBytesOf, checkedCaches, sweepSourceCaches, tidyCaches } from './cacheUpkeep';
import { dropSource, ensureCatalog, readCatalog, readDocument } from './catalog';
import { CopyWriter, type CopyOptions } from './copyWriter';
import { ingestDelimited, type InPlaceView } from './csvIngest';
import { ingestDocument } from './documentIngest';
import { fileFormatOf, type FileKind } from './fileKinds';
import { ingestInflated } from './gzipCopy';
import { DEFAULT_MAX_INFLATED_BYTES } from './gzipScan';
import { CACHE_DIR } from './inPlaceCache';
import { fileErrorReason } from './ingestInput';
import { ingestJson } from './jsonIngest';
import { ingestParquet } from './parquetIngest';
import { RowGauge, watchProgress } from './rowGauge';
import { abortError, armInterrupts, runQuery, type QueryOptions, type QueryParam, type QueryResult } from './queryRunner';
import { isInside, lockDown, readablePath, type StoreLimits } from './sandbox';
import { mentionsSource } from './sqlText';
import { ingestText } from './textIngest';
import { ingestSpreadsheet } from './xlsxIngest';

export type { QueryOptions, QueryParam, QueryResult } from './queryRunner';
export type { StoreLimits } from './sandbox';
export { QueryError, QueryTimeoutError, ResultTooLargeError } from './queryRunner';

/** Formats read in place as views over the file (gzip CSV and TSV included). */
export const IN_PLACE_KINDS: readonly FileKind[] = ['csv', 'tsv', 'parquet'];

/** File name of the database inside the data directory. */
export const DATABASE_FILE = 'analysis.duckdb';
/** Scratch directory (transcoded copies) inside the data directory; emptied on open. */
const WORK_DIR = 'ingest-tmp';
/** Where DuckDB spills what does not fit its memory limit, inside the data directory. */
const SPILL_DIR = 'duckdb-spill';

/**
 * Connections kept for ingests. DuckDB tracks a statement's progress only on connections that
 * enabled it, a per-connection setting the locked configuration (sandbox.ts) no longer lets a new
 * connection change; so these are made, with tracking on, before the lock. The queue reads two
 * files at a time; an ingest beyond the pool runs on a plain connection, without progress.
 */
const INGEST_CONNECTIONS = 4;

/**
 * Database files open in this process. DuckDB's file lock only stops other processes; two instances
 * on one file inside a process would corrupt it, so a second open is refused here.
 */
const openInProcess = new Set<string>();

export class DuckDbStore implements DataStore {
  /** Per-source queue: ingest, drop and describe of one source never interleave. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Connections in use, so close() can interrupt what is still running. */
  private readonly busy = new Set<DuckDBConnection>();
  /** Statements running through {@link query}, so dropping a source can stop the ones reading it. */
  private readonly querying = new Map<DuckDBConnection, string>();
  /** Work in flight (ingests, queries), awaited by close() before the database is closed. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  /** Idle connections with progress tracking on, for ingests (see {@link INGEST_CONNECTIONS}). */
  private readonly ingestConnections: DuckDBConnection[] = [];
  /**
   * What each source's ingest produced, as read back from the catalog. Every job describes its
   * sources, and reading the catalog costs a connection and a query; the entry is dropped whenever
   * the source is ingested again or dropped (both run under the source's lock, as describe does).
   */
  private readonly described = new Map<string, IngestResult>();
  /** The columnar copies of CSVs read in place, written after their reads (copyWriter.ts). */
  private readonly copies: CopyWriter;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly workDir: string,
    /** Path of the database file. */
    readonly databasePath: string,
    /** Folders DuckDB may read files from (everything else is refused by DuckDB itself). */
    private readonly readable: readonly string[],
    /** Bytes a gzip-compressed file may inflate to. */
    private readonly maxInflatedBytes: number,
    /** Folder of the columnar copies of CSVs read in place (inPlaceCache.ts). */
    private readonly cacheDir: string,
    /** Whether reads write copies, the largest kept as a share of its file, and the smallest file copied (undefined: the defaults). */
    private readonly copying: { write: boolean; maxShare: number | undefined; minBytes: number | undefined },
  ) {
    this.copies = new CopyWriter({
      dir: cacheDir, maxShare: copying.maxShare, minBytes: copying.minBytes,
      onConnection: (fn) => this.withConnection(fn),
      underLock: (id, fn) => this.serialized(id, fn),
      adopted: (id, result) => this.described.set(id, result),
    });
  }

  /**
   * Opens (creating if needed) `<dataDir>/analysis.duckdb`. Extension auto-install and auto-load are
   * off: the machine may have no internet, and json, parquet and icu are built in. DuckDB may read
   * only the scratch folder and `limits.readableDirs`, within a memory limit (see sandbox.ts).
   */
  static async open(dataDir: string, limits: StoreLimits = {}): Promise<DuckDbStore> {
    await mkdir(dataDir, { recursive: true });
    const workDir = join(dataDir, WORK_DIR);
    const databasePath = resolve(dataDir, DATABASE_FILE);
    if (openInProcess.has(databasePath)) {
      throw new Error(`the database ${databasePath} is already open in this process; close the other store first`);
    }
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(databasePath, {
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
      });
    } catch (err) {
      const m = err instanceof Error ? err.message : String(err);
      throw new Error(/lock/i.test(m)
        ? `the database ${databasePath} is in use by another process (is another local service running on this data directory?)${/lock is held in [^\n]*/i.exec(m)?.[0].replace(/^/, '; DuckDB says: ') ?? ''}`
        : `could not open the database ${databasePath}: ${m.split('\n')[0] ?? m}`);
    }
    // Only once the database lock is ours: another service on this directory keeps its scratch files.
    openInProcess.add(databasePath);
    try {
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true });
      const spillDir = join(dataDir, SPILL_DIR);
      await rm(spillDir, { recursive: true, force: true });
      const readable = [workDir, ...(limits.readableDirs ?? [])];
      // A cache folder that cannot be made just means no copies are (each read finds it cannot write one).
      const cacheDir = join(resolve(dataDir), CACHE_DIR);
      await mkdir(cacheDir, { recursive: true }).catch(() => undefined);
      const copies = { write: limits.inPlaceCache !== false, maxShare: limits.maxCacheShare, minBytes: limits.minCacheBytes };
      const store = new DuckDbStore(instance, workDir, databasePath, readable, limits.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES, cacheDir, copies);
      for (let i = 0; i < INGEST_CONNECTIONS; i++) {
        const conn = await instance.connect();
        await conn.run('SET enable_progress_bar = true');
        await conn.run('SET enable_progress_bar_print = false');
        store.ingestConnections.push(conn);
      }
      await store.withConnection(async (conn) => {
        await lockDown(conn, spillDir, [...readable, cacheDir], limits);
        await ensureCatalog(conn);
        await tidyCaches(conn, cacheDir, copies.write);
      });
      return store;
    } catch (err) {
      openInProcess.delete(databasePath);
      instance.closeSync();
      throw err;
    }
  }

  async ingest(source: DataSource, filePath: string, signal: AbortSignal, opts: IngestOptions = {}): Promise<IngestResult> {
    this.assertOpen();
    if (signal.aborted) throw abortError(signal);
    // The user's file name decides the format; the stored upload may have a generated name.
    const fileName = source.fileName || source.name || filePath;
    const { kind, gzip } = fileFormatOf(/\.[A-Za-z0-9]+$/.test(fileName) ? fileName : filePath);
    const inPlace = opts.inPlace === true;
    if (inPlace && !IN_PLACE_KINDS.includes(kind)) throw new IngestError(`${fileName}: only CSV, TSV and Parquet files are read in place; upload it instead`);
    // A view keeps reading the file's path, so that path itself must be one DuckDB may read.
    if (inPlace && !isInside(filePath, this.readable)) throw new IngestError(`${fileName} is outside the folders this service may read`);
    // A copy of the previous read still being written is stopped: it would be of the old file.
    await this.copies.forget(source.id);
    return this.serialized(source.id, () => this.withConnection(async (conn) => {
      this.described.delete(source.id);
      // The interrupt stops whichever DuckDB statement is running; no timeout: big files take time.
      const guard = armInterrupts(conn, signal, undefined);
      const gauge = new RowGauge();
      const progress = watchProgress(conn, opts.onProgress, gauge);
      let release = async (): Promise<void> => undefined;
      try {
        // DuckDB reads only its readable folders; a file elsewhere (tests, tools) is linked in first.
        const readable = await readablePath(filePath, this.readable, this.workDir, source.id);
        release = readable.release;
        const base = { conn, sourceId: source.id, filePath: readable.path, fileName, signal, rows: gauge };
        const text = { ...base, gzip, maxInflatedBytes: this.maxInflatedBytes, workDir: this.workDir };
        switch (kind) {
          case 'csv':
          case 'tsv':
          {
            let view: InPlaceView | undefined;
            const read = await ingestDelimited({ ...text, tab: kind === 'tsv', inPlace, ...(inPlace && this.copying.write ? { onView: (v: InPlaceView) => (view = v) } : {}) });
            const made = view as InPlaceView | undefined;
            const t = read.kind === 'tables' ? read.tables.find((x) => x.table === made?.table) : undefined;
            // Copied after the read, when asked (writeCopy): the read's answer never waits for it.
            if (made !== undefined && t?.inPlace !== undefined) this.copies.plan(source.id, { ...made, version: t.inPlace.version, columns: t.columns });
            return read;
          }
          case 'json':
            return await ingestJson(text);
          case 'parquet':
          case 'spreadsheet':
            if (gzip) return await ingestInflated(kind, base, { workDir: this.workDir, maxInflatedBytes: this.maxInflatedBytes });
            return kind === 'parquet' ? await ingestParquet({ ...base, inPlace }) : await ingestSpreadsheet(base);
          case 'text':
            return await ingestText(base);
          case 'pdf':
          case 'docx':
          case 'pptx':
            return await ingestDocument({ ...base, kind });
        }
      } catch (err) {
        if (signal.aborted) throw abortError(signal);
        throw fileErrorReason(err, inPlace, filePath, fileName) ?? err;
      } finally {
        clearInterval(progress);
        guard.dispose();
        await release().catch(() => undefined);
        // The copy of the previous read, or of a read that failed: whatever the catalog no longer records.
        if (inPlace) await sweepSourceCaches(conn, this.cacheDir, source.id).catch(() => undefined);
      }
    }, true));
  }

  /**
   * Writes the columnar copy of a CSV the last ingest read in place, then swaps its view to the copy
   * (copyWriter.ts). Resolves with the source's entry recording the copy, or undefined when none was
   * kept (no CSV read in place, copies off, too large, failed, stopped by a re-read, a drop, `signal`
   * or close). Never rejects. Meanwhile {@link copiesSettled} lets the question index wait for it.
   */
  writeCopy(sourceId: string, o: CopyOptions = {}): Promise<IngestResult | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    return this.copies.write(sourceId, o);
  }

  /** Resolves when none of these sources has a copy being written (or when `signal` aborts). */
  copiesSettled(sourceIds: readonly string[], signal?: AbortSignal): Promise<void> {
    return this.copies.settled(sourceIds, signal);
  }

  /** Bytes of a source's columnar copies (0 when it has none), for the Datasets view. */
  static cacheBytes(result: IngestResult | undefined): number {
    return cacheBytesOf(result);
  }

  async describe(sourceId: string): Promise<IngestResult | undefined> {
    this.assertOpen();
    return this.serialized(sourceId, async () => {
      let result = this.described.get(sourceId);
      if (result === undefined) {
        result = await this.withConnection((conn) => readCatalog(conn, sourceId));
        if (result !== undefined) this.described.set(sourceId, result);
      }
      if (result !== undefined) {
        const checked = await checkedCaches(result, sourceId, this.cacheDir, (fn) => this.withConnection(fn));
        if (checked !== result) this.described.set(sourceId, (result = checked));
      }
      // Callers get their own copy: nothing they do can change what the next job sees.
      return result === undefined ? undefined : structuredClone(result);
    });
  }

  async readText(sourceId: string): Promise<string | undefined> {
    this.assertOpen();
    return this.serialized(sourceId, () => this.withConnection((conn) => readDocument(conn, sourceId)));
  }

  async drop(sourceId: string): Promise<void> {
    this.assertOpen();
    // Work still reading the source (a question, the index built after an overview) is stopped:
    // a deleted source's data is nobody's, and a big file's scan would run on for seconds.
    const reads = mentionsSource(sourceId);
    for (const [conn, sql] of this.querying) if (reads.test(sql)) conn.interrupt();
    await this.copies.forget(sourceId);
    await this.serialized(sourceId, () => {
      this.described.delete(sourceId);
      return this.withConnection(async (conn) => {
        await dropSource(conn, sourceId);
        await sweepSourceCaches(conn, this.cacheDir, sourceId);
      });
    });
  }

  /**
   * Runs SQL (one statement, or a script whose last statement's rows are returned) on its own
   * connection. Values come back as plain JS: BIGINT as number when exact else string, DATE as
   * `YYYY-MM-DD`, TIMESTAMP as ISO 8601, DECIMAL as number, nested types as arrays/objects.
   * Rejects with `QueryTimeoutError` after `timeoutMs`, with the abort reason when `signal` aborts,
   * and with `QueryError` (DuckDB's message) for bad SQL.
   */
  async query(sql: string, params?: readonly QueryParam[], options?: QueryOptions): Promise<QueryResult> {
    this.assertOpen();
    return this.track(runQuery(this.instance, sql, params, options, (conn, active) => {
      if (active) {
        this.busy.add(conn);
        this.querying.set(conn, sql);
      } else {
        this.busy.delete(conn);
        this.querying.delete(conn);
      }
    }));
  }

  /**
   * Runs `fn` on a connection of its own, for work that reads files outside a source's ingest (the
   * Data Explorer, server/explore/): DuckDB is interrupted when `signal` aborts or after `timeoutMs`.
   * `tracked` takes an idle connection whose progress DuckDB tracks (`conn.progress`), when one is
   * free. An {@link IngestError} from `fn` passes as it is; DuckDB's errors become `QueryError`s.
   */
  async work<T>(fn: (conn: DuckDBConnection) => Promise<T>, o: { signal?: AbortSignal; timeoutMs?: number; tracked?: boolean } = {}): Promise<T> {
    this.assertOpen();
    if (o.signal?.aborted) throw abortError(o.signal);
    return this.withConnection(async (conn) => {
      const guard = armInterrupts(conn, o.signal, o.timeoutMs);
      try {
        return await fn(conn);
      } catch (err) {
        if (err instanceof IngestError && o.signal?.aborted !== true) throw err;
        throw guard.settle(err);
      } finally {
        guard.dispose();
      }
    }, o.tracked === true);
  }

  /** Whether DuckDB may read (and write) `path` where it is. */
  mayRead(path: string): boolean {
    return isInside(path, this.readable);
  }

  /** The store's scratch folder (emptied when the store opens), which DuckDB may read and write. */
  get scratchDir(): string {
    return this.workDir;
  }

  /** Bytes a gzip-compressed file may inflate to. */
  get inflateLimit(): number {
    return this.maxInflatedBytes;
  }

  /**
   * Interrupts running statements, waits for work in flight to settle, then closes the database
   * (DuckDB checkpoints on close). Later calls fail; closing twice is harmless.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.copies.stopAll();
    for (const conn of this.busy) conn.interrupt();
    await Promise.allSettled([...this.inFlight, ...this.locks.values()]);
    for (const conn of this.ingestConnections.splice(0)) conn.disconnectSync();
    this.instance.closeSync();
    openInProcess.delete(this.databasePath);
    await rm(this.workDir, { recursive: true, force: true });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the data store is closed');
  }

  /** Runs `fn` on a connection of its own; `forIngest` takes one with progress tracking when one is idle. */
  private withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>, forIngest = false): Promise<T> {
    return this.track((async () => {
      const pooled = forIngest ? this.ingestConnections.pop() : undefined;
      const conn = pooled ?? await this.instance.connect();
      this.busy.add(conn);
      let failed = false;
      try {
        return await fn(conn);
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        this.busy.delete(conn);
        if (pooled !== undefined && !this.closed) {
          // The next ingest must not find a transaction left open by an interrupted one.
          if (failed) await pooled.run('ROLLBACK').catch(() => undefined);
          this.ingestConnections.push(pooled);
        } else conn.disconnectSync();
      }
    })());
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = (): void => {
      this.inFlight.delete(work);
    };
    work.then(done, done);
    return work;
  }

  private serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return run;
  }
}
