/**
 * One open view: a file (or a sheet of it, or a source's table) the explorer shows. A file is read
 * into a database of the view's own, attached from the store's scratch folder; a large CSV serves
 * its first rows from the file while that read goes on, with its progress. Every request first
 * checks the file: an edited file is read again (the view's `version` goes up), a deleted one
 * fails the view in plain words. Closing the view stops its read and deletes its database.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ErrorCode } from '../../shared/errorCodes';
import type { ExploreColumn, ExploreOpened, ExploreStatus } from '../../shared/explore';
import type { ColumnInfo, TableOrigin } from '../engine';
import { IngestError } from '../engine';
import type { DuckDbStore } from '../duckdb/duckDbStore';
import { dateConversionExpr } from '../duckdb/dateColumns';
import { duckDbFileName } from '../duckdb/fileKinds';
import { selectFrom } from '../duckdb/jsonShape';
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { ApiError } from '../http/envelope';
import type { FileStamp } from '../state/records';
import { exploreColumns } from './exploreQuery';
import { openExploreFile, type OpenedFile } from './exploreFile';

/** How long opening a file may take (a workbook is parsed whole; a CSV only sniffed). */
const OPEN_TIMEOUT_MS = 120_000;
const PROGRESS_EVERY_MS = 200;

export type ViewOrigin =
  | { kind: 'file'; path: string; fileName: string; sheet?: string }
  | { kind: 'source'; sourceId: string; fileName: string; table: string; columns: ColumnInfo[]; rowCount: number; origin?: TableOrigin; isView: boolean; sheet?: string; sheets?: string[] };

export const stillReading = (v: ExploreView): ApiError => new ApiError(ErrorCode.INVALID_OPERATION,
  `still reading ${v.fileName}${v.total ? ` (${Math.floor(((v.done ?? 0) / v.total) * 100)}%)` : ''}: sorting, filtering, counting and summaries are available once the whole file is read`, 409);

export class ExploreView {
  state: 'ready' | 'reading' | 'failed' = 'reading';
  columns: ExploreColumn[] = [];
  relation = '';
  tiebreak: string | undefined;
  shown = '';
  rowCount: number | undefined;
  done: number | undefined;
  total: number | undefined;
  error: string | undefined;
  /** Goes up each time an edited file is read again. */
  version = 0;
  sheets: string[] | undefined;
  sheet: string | undefined;
  lastUsed = Date.now();
  /** An export running on this view, with the share written. */
  exporting: { fraction: number; abort: AbortController } | undefined;
  private stamp: FileStamp | undefined;
  private reader: AbortController = new AbortController();
  private background: Promise<void> | undefined;
  private db: string | undefined;
  private opened: OpenedFile | undefined;
  private refreshing: Promise<void> | undefined;
  /** Stops a read of an edited file when the view closes. */
  private reopening: AbortController | undefined;
  /** The requests reading the view's current data (its database, its copy), and what drops it once replaced. */
  private generation: { holds: number; retire?: () => Promise<void> } = { holds: 0 };
  private closed = false;
  /** The file DuckDB reads, when messages must not name it (an inflated copy). */
  readPath: string | undefined;
  private columnsChanged = false;

  constructor(readonly id: string, readonly leaseId: string | undefined, readonly origin: ViewOrigin, private readonly store: DuckDbStore) {}

  get fileName(): string {
    return this.origin.fileName;
  }

  /** Reads the file (or takes the source's table); throws an IngestError with the reason. */
  async open(signal: AbortSignal): Promise<void> {
    const o = this.origin;
    if (o.kind === 'source') {
      this.columns = exploreColumns(o.columns);
      this.relation = quoteIdent(o.table);
      this.tiebreak = o.isView ? undefined : 'rowid';
      this.rowCount = o.rowCount;
      this.shown = shownOfOrigin(o.fileName, o.origin);
      this.sheets = o.sheets;
      this.sheet = o.sheet;
      this.state = 'ready';
      return;
    }
    const st = await stat(o.path);
    this.stamp = { size: st.size, mtimeMs: st.mtimeMs };
    const db = `explore_${this.id}_${this.version}`;
    const dbFile = join(this.store.scratchDir, `${db}.duckdb`);
    this.db = db;
    const target = `${quoteIdent(db)}.${quoteIdent('t')}`;
    const opened = await this.store.work(async (conn) => {
      await conn.run(`ATTACH ${quoteLiteral(dbFile)} AS ${quoteIdent(db)}`);
      return openExploreFile({
        conn, path: o.path, fileName: o.fileName, target, scratch: this.store.scratchDir, maxInflatedBytes: this.store.inflateLimit, signal,
        ...(o.sheet !== undefined ? { sheet: o.sheet } : {}),
      });
    }, { signal, timeoutMs: OPEN_TIMEOUT_MS });
    this.opened = opened;
    this.readPath = opened.readPath;
    this.columns = exploreColumns(opened.columns);
    this.relation = opened.relation;
    this.tiebreak = opened.tiebreak;
    this.shown = opened.shown;
    this.sheets = opened.sheets;
    this.sheet = opened.sheet;
    this.total = opened.bytes;
    if (!opened.reading) {
      this.state = 'ready';
      this.rowCount = await this.count(this.relation);
      return;
    }
    this.state = 'reading';
    this.done = 0;
    this.reader = new AbortController();
    this.background = this.readWhole(opened, target, this.reader.signal);
  }

  private async count(relation: string): Promise<number> {
    const r = await this.store.query(`SELECT count(*) FROM ${relation}`, [], { timeoutMs: 60_000, maxRows: 1 });
    return Number(r.rows[0]?.[0] ?? 0);
  }

  private async readWhole(opened: OpenedFile, target: string, signal: AbortSignal): Promise<void> {
    const finish = opened.finish;
    if (finish === undefined) return;
    try {
      const read = await this.store.work(async (conn: DuckDBConnection) => {
        const timer = setInterval(() => {
          const share = conn.progress.percentage / 100;
          if (Number.isFinite(share) && share > 0 && this.total !== undefined) this.done = Math.max(this.done ?? 0, Math.min(1, share) * this.total);
        }, PROGRESS_EVERY_MS);
        timer.unref();
        try {
          return await finish(conn, target, signal);
        } finally {
          clearInterval(timer);
        }
      }, { signal, tracked: true });
      if (signal.aborted) return;
      this.rowCount = await this.count(target);
      const columns = exploreColumns(read.columns);
      this.columnsChanged = JSON.stringify(columns) !== JSON.stringify(this.columns);
      this.columns = columns;
      this.shown = read.shown;
      this.relation = target;
      this.tiebreak = 'rowid';
      this.done = this.total;
      this.state = 'ready';
    } catch (err) {
      if (signal.aborted) return;
      this.state = 'failed';
      this.error = err instanceof IngestError ? err.message : `could not read ${this.fileName}: ${err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err)}`;
    }
  }

  /**
   * Before a request: a deleted file fails the view (404 in plain words), an edited one is read
   * again (the caller then sees the new columns through `status`), a failed read is reported.
   */
  async fresh(): Promise<void> {
    this.lastUsed = Date.now();
    if (this.closed) throw new ApiError(ErrorCode.NOT_FOUND, 'this view was closed; open the file again', 404);
    await this.refreshing;
    const o = this.origin;
    if (o.kind === 'file') {
      const st = await stat(o.path).catch(() => undefined);
      if (st === undefined) {
        this.state = 'failed';
        this.error = `${this.fileName} was deleted or moved; open it again from its new place`;
      } else if (this.stamp === undefined || st.size !== this.stamp.size || st.mtimeMs !== this.stamp.mtimeMs) {
        this.refreshing ??= this.reopen().finally(() => {
          this.refreshing = undefined;
        });
        await this.refreshing;
      }
    }
    if (this.state === 'failed') throw new ApiError(ErrorCode.INVALID_OPERATION, this.error ?? `could not read ${this.fileName}`, 410);
  }

  /**
   * {@link fresh}, then a hold on the data the request will read: an edit read meanwhile replaces
   * the view's database and copy, and the old ones are dropped only once every hold on them is let
   * go (a page already past this point would otherwise read a file just deleted). Call the returned
   * function when the request is done; calling it twice is harmless.
   */
  async freshHold(): Promise<() => void> {
    await this.fresh();
    const g = this.generation;
    g.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      g.holds--;
      if (g.holds === 0 && g.retire !== undefined) void g.retire();
    };
  }

  private async reopen(): Promise<void> {
    await this.release();
    this.version++;
    this.state = 'reading';
    this.error = undefined;
    this.rowCount = undefined;
    // Closing the view stops this read, and so does the deadline: an edited .parquet.gz is inflated
    // again, which DuckDB's own deadline (in `open`) does not reach.
    this.reopening = new AbortController();
    try {
      await this.open(AbortSignal.any([this.reopening.signal, AbortSignal.timeout(OPEN_TIMEOUT_MS)]));
    } catch (err) {
      this.state = 'failed';
      this.error = err instanceof IngestError ? err.message : `could not read ${this.fileName} again after it changed: ${err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err)}`;
    }
  }

  /** Stops the background read and drops the view's database. */
  private async release(): Promise<void> {
    this.reader.abort(new Error('the view was closed'));
    this.exporting?.abort.abort(new Error('the view was closed'));
    await this.background?.catch(() => undefined);
    this.background = undefined;
    const opened = this.opened;
    const db = this.db;
    this.opened = undefined;
    this.db = undefined;
    this.readPath = undefined;
    const g = this.generation;
    this.generation = { holds: 0 };
    let dropped: Promise<void> | undefined;
    g.retire = () => (dropped ??= this.drop(opened, db));
    if (g.holds === 0) await g.retire();
  }

  /** Drops a replaced or closed view's copy and database. */
  private async drop(opened: OpenedFile | undefined, db: string | undefined): Promise<void> {
    await opened?.cleanup().catch(() => undefined);
    if (db !== undefined) {
      await this.store.query(`DETACH DATABASE IF EXISTS ${quoteIdent(db)}`, [], { timeoutMs: 10_000 }).catch(() => undefined);
      await rm(join(this.store.scratchDir, `${db}.duckdb`), { force: true }).catch(() => undefined);
      await rm(join(this.store.scratchDir, `${db}.duckdb.wal`), { force: true }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.reopening?.abort(new Error('the view was closed'));
    await this.refreshing?.catch(() => undefined);
    await this.release();
  }

  openedInfo(): ExploreOpened {
    const out: ExploreOpened = { viewId: this.id, fileName: this.fileName, columns: this.columns, state: this.state === 'ready' ? 'ready' : 'reading' };
    if (this.sheets !== undefined) out.sheets = this.sheets;
    if (this.sheet !== undefined) out.sheet = this.sheet;
    if (this.rowCount !== undefined) out.rowCount = this.rowCount;
    return out;
  }

  status(): ExploreStatus {
    const out: ExploreStatus = { state: this.state, version: this.version };
    // The columns travel again only once they may differ from what `open` gave (a changed file, or
    // a CSV whose later values turned a column into text).
    if (this.version > 0 || this.columnsChanged) out.columns = this.columns;
    if (this.state === 'reading' && this.total !== undefined) {
      out.done = Math.round(this.done ?? 0);
      out.total = this.total;
    }
    if (this.rowCount !== undefined) out.rowCount = this.rowCount;
    if (this.error !== undefined) out.error = this.error;
    if (this.exporting !== undefined) out.export = { fraction: this.exporting.fraction };
    return out;
  }
}

/** A source's reader over its file's own name, as the answers' shown SQL writes it (recipe.ts). */
function shownOfOrigin(fileName: string, o: TableOrigin | undefined): string {
  if (o === undefined) return `read_csv(${quoteLiteral(fileName)})`;
  const reader = `${o.reader}(${[quoteLiteral(duckDbFileName(fileName)), ...o.options].join(', ')})`;
  const call = o.select !== undefined ? `(${selectFrom(o.select, reader)})` : reader;
  if (o.dateColumns.length === 0) return call;
  const replaced = o.dateColumns.map((d) => `${dateConversionExpr(quoteIdent(d.column), d.format, d.type)} AS ${quoteIdent(d.column)}`).join(', ');
  return `(SELECT * REPLACE (${replaced}) FROM ${call})`;
}
