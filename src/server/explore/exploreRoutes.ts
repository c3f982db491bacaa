/**
 * The Data Explorer's endpoints (issue 27), beside the lease routes under `/local/v1/explore` and
 * behind the same key; the contract's v1 and v2 paths do not change. Every body is checked
 * (exploreQuery.ts) before any SQL is written; every query goes through the store with a deadline
 * and stops when its client disconnects.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import { ErrorCode } from '../../shared/errorCodes';
import { EXPLORE_LIMITS, type ExploreColumn, type ExplorePage, type ExploreQuery } from '../../shared/explore';
import type { Json } from '../../shared/json';
import { IngestError } from '../engine';
import { LOCAL_PREFIX } from '../daemon/leaseRoutes';
import { DuckDbStore, QueryError, QueryTimeoutError } from '../duckdb/duckDbStore';
import { duckDbReason, needsGunzip } from '../duckdb/fileKinds';
import { quoteLiteral } from '../duckdb/sqlText';
import { ApiError } from '../http/envelope';
import { readJsonBody } from '../http/requestBody';
import type { RequestContext, Router } from '../http/router';
import { atOrUnderRoots } from '../ingest/readRoots';
import { inPlaceFile } from '../routes/sourceLifecycle';
import { leaseOf } from '../routes/routeKit';
import type { ServiceDeps } from '../serviceDeps';
import { exportRows } from './exploreExport';
import { formatOf } from './exploreFile';
import { badRequest, cellChars, cutCells, orderSql, parseQuery, regexesOf, selectList, whereSql } from './exploreQuery';
import { pageRows } from './explorePage';
import { summarize } from './exploreSummary';
import { stillReading, type ExploreView, type ViewOrigin } from './exploreView';
import { ExploreViews } from './exploreViews';

export const EXPLORE_PREFIX = `${LOCAL_PREFIX}/explore`;
const QUERY_TIMEOUT_MS = 60_000;
const MAX_QUERY_PARAM = 200_000;

const asJson = <T>(v: T): Json => v as unknown as Json;

async function body(ctx: RequestContext): Promise<Record<string, unknown>> {
  const raw = await readJsonBody(ctx.req);
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('body: a JSON object');
  return raw as Record<string, unknown>;
}

/** Aborted when the client goes away before its answer was sent: its query stops. */
function requestSignal(ctx: RequestContext): AbortSignal {
  const ac = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ac.abort(new Error('the client went away'));
  });
  return ac.signal;
}

function int(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badRequest(`${field}: a whole number from ${min} to ${max}`);
  return v;
}

/** A DuckDB failure as a plain answer (a value that does not fit, a deadline). */
function explained(err: unknown, view: ExploreView): unknown {
  if (err instanceof ApiError) return err;
  if (err instanceof IngestError) return new ApiError(ErrorCode.INVALID_PARAMS, err.message);
  if (err instanceof QueryTimeoutError) return new ApiError(ErrorCode.INTERNAL, `the query on ${view.fileName} took longer than ${Math.round(err.timeoutMs / 1000)} s and was stopped; narrow the filters`, 503);
  if (err instanceof QueryError) return new ApiError(ErrorCode.INVALID_PARAMS, `could not run this view of ${view.fileName}: ${duckDbReason(err, view.readPath ?? '', view.fileName)}`);
  return err;
}

export function registerExploreRoutes(router: Router, deps: ServiceDeps): ExploreViews | undefined {
  const store = deps.store;
  if (!(store instanceof DuckDbStore)) return undefined;
  const inPlaceRoots = deps.inPlaceRoots;
  const views = new ExploreViews(store, (lease) => inPlaceRoots === undefined || inPlaceRoots(lease) !== undefined);
  const run = async (sql: string, signal: AbortSignal, maxRows: number = EXPLORE_LIMITS.pageRows): Promise<unknown[][]> =>
    (await store.query(sql, [], { signal, timeoutMs: QUERY_TIMEOUT_MS, maxRows })).rows;
  /**
   * A page's statement with its cells cut to `chars` ({@link cellChars} keeps a page well under the
   * runner's byte cap). Should the cap still cut a page short, it is refused rather than sent: the
   * grid takes a short page for the end of the view and would stop there.
   */
  const runPage = async (sql: string, view: ExploreView, signal: AbortSignal, maxRows: number, chars: number, from: number): Promise<unknown[][]> => {
    const r = await store.query(cutCells(sql, view.columns, chars), [], { signal, timeoutMs: QUERY_TIMEOUT_MS, maxRows, maxCellBytes: chars, presized: true });
    if (r.truncatedBy === 'bytes') throw new ApiError(ErrorCode.INVALID_PARAMS, `the rows of ${view.fileName} from row ${(from + r.rows.length + 1).toLocaleString('en-US')} are too large to show here (over 64 MB a page); Copy as SQL reads them in DuckDB`);
    return r.rows;
  };

  /** The view, fresh (an edited file read again), and the query checked against its columns. */
  const prepare = async (ctx: RequestContext, raw: unknown, needWhole: boolean): Promise<{ view: ExploreView; q: ExploreQuery; signal: AbortSignal }> => {
    const view = views.get(ctx.params['id'] ?? '');
    // Held until the answer is sent: an edit read meanwhile keeps the data this request reads.
    ctx.res.once('close', await view.freshHold());
    const q = parseQuery(raw, view.columns);
    if (view.state === 'reading' && (needWhole || q.sort.length > 0 || q.filters.length > 0)) throw stillReading(view);
    const signal = requestSignal(ctx);
    for (const re of regexesOf(q)) {
      try {
        await run(`SELECT regexp_matches('', ${quoteLiteral(re)})`, signal, 1);
      } catch (err) {
        throw badRequest(`regex: ${re.slice(0, 100)} is not a valid regular expression (RE2 syntax): ${err instanceof Error ? err.message.split('\n')[0]?.replace(/^.*Error:\s*/, '') ?? '' : ''}`);
      }
    }
    return { view, q, signal };
  };
  const filtered = (view: ExploreView, q: ExploreQuery, columns: readonly ExploreColumn[] = view.columns): string =>
    [`SELECT ${selectList(columns)} FROM ${view.relation}`, whereSql(q, view.columns), orderSql(q, view.tiebreak)].filter((s) => s !== '').join('\n');

  router.add('POST', `${EXPLORE_PREFIX}/open`, async (ctx) => {
    const b = await body(ctx);
    const sheet = b['sheet'] === undefined ? undefined : typeof b['sheet'] === 'string' && b['sheet'].length <= 200 ? b['sheet'] : (() => { throw badRequest('sheet: a sheet name'); })();
    const lease = leaseOf(ctx);
    // Only a shared service has leases; a view opened there goes with its client's lease.
    const owner = deps.inPlaceRoots !== undefined ? lease : undefined;
    let origin: ViewOrigin;
    if (typeof b['path'] === 'string') {
      if (!isAbsolute(b['path'])) throw badRequest('path: must be an absolute path');
      const fileName = basename(b['path']);
      try {
        formatOf(fileName);
      } catch (err) {
        throw new ApiError(ErrorCode.INVALID_PARAMS, `path: ${err instanceof Error ? err.message : String(err)}`);
      }
      const file = await inPlaceFile(deps, b['path'], lease);
      if (!store.mayRead(file.real)) throw new ApiError(ErrorCode.INVALID_PARAMS, `path: this service cannot read ${b['path']} until it restarts, which it does once no job runs; try again in a moment`);
      origin = { kind: 'file', path: file.real, fileName, ...(sheet !== undefined ? { sheet } : {}) };
    } else if (typeof b['datasourceId'] === 'string') {
      const rec = deps.meta.sources.get(b['datasourceId']);
      if (rec === undefined) throw new ApiError(ErrorCode.NOT_FOUND, 'datasourceId: no such data source', 404);
      if (rec.status !== 'synched') throw new ApiError(ErrorCode.INVALID_OPERATION, `${rec.fileName} is not ready yet (${rec.status}); open it once it is processed`, 409);
      const result = await store.describe(rec.id);
      if (result?.kind !== 'tables' || result.tables.length === 0) throw new ApiError(ErrorCode.INVALID_PARAMS, `${rec.fileName} holds no table to explore`);
      const t = sheet === undefined ? result.tables[0] : result.tables.find((x) => x.sheet === sheet);
      if (t === undefined) throw new ApiError(ErrorCode.INVALID_PARAMS, `sheet: ${rec.fileName} has no sheet "${sheet ?? ''}"`);
      const isView = (await store.query(`SELECT count(*) FROM duckdb_views() WHERE view_name = ${quoteLiteral(t.table)}`, [], { maxRows: 1 })).rows[0]?.[0] !== 0;
      origin = {
        kind: 'source', sourceId: rec.id, fileName: rec.fileName, table: t.table, columns: t.columns, rowCount: t.rowCount, isView,
        ...(t.origin ? { origin: t.origin } : {}), ...(t.sheet !== undefined ? { sheet: t.sheet } : {}),
        ...(result.tables.length > 1 ? { sheets: result.tables.flatMap((x) => (x.sheet !== undefined ? [x.sheet] : [])) } : {}),
      };
    } else throw badRequest('body: { path } (an absolute file path) or { datasourceId }');
    try {
      const view = await views.open(owner, origin, requestSignal(ctx));
      return { data: asJson(view.openedInfo()) };
    } catch (err) {
      if (err instanceof IngestError) throw new ApiError(ErrorCode.INVALID_PARAMS, err.message);
      if (err instanceof QueryError) throw new ApiError(ErrorCode.INVALID_PARAMS, `could not open ${origin.fileName}: ${duckDbReason(err, origin.kind === 'file' ? origin.path : '', origin.fileName)}`);
      const code = (err as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ENOENT') throw new ApiError(ErrorCode.INVALID_PARAMS, `${origin.fileName} does not exist (was it moved or deleted?)`);
      throw err;
    }
  });

  router.add('POST', `${EXPLORE_PREFIX}/:id/rows`, async (ctx) => {
    const b = await body(ctx);
    const { view, q, signal } = await prepare(ctx, b['query'], false);
    const offset = int(b['offset'] ?? 0, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = int(b['limit'] ?? 200, 'limit', 1, EXPLORE_LIMITS.pageRows);
    try {
      // Cells cut in the page's own SQL: the runner need not prepare it twice (4 ms of a 8 ms page).
      const chars = cellChars(view.columns.length, limit);
      const page: ExplorePage = { offset, rows: await pageRows((sql, cells) => (cells ? runPage(sql, view, signal, limit, chars, offset) : run(sql, signal, limit)), view, q, offset, limit) };
      if (q.filters.length === 0 && view.rowCount !== undefined) page.matching = view.rowCount;
      return { data: asJson(page) };
    } catch (err) {
      throw explained(err, view);
    }
  });

  router.add('POST', `${EXPLORE_PREFIX}/:id/count`, async (ctx) => {
    const b = await body(ctx);
    const { view, q, signal } = await prepare(ctx, b['query'], true);
    try {
      if (q.filters.length === 0 && view.rowCount !== undefined) return { data: { matching: view.rowCount } };
      const rows = await run(`SELECT count(*) FROM ${view.relation}\n${whereSql(q, view.columns)}`, signal, 1);
      return { data: { matching: Number(rows[0]?.[0] ?? 0) } };
    } catch (err) {
      throw explained(err, view);
    }
  });

  router.add('POST', `${EXPLORE_PREFIX}/:id/summary`, async (ctx) => {
    const b = await body(ctx);
    const { view, q, signal } = await prepare(ctx, b['query'], true);
    let columns = view.columns.slice(0, EXPLORE_LIMITS.summaryColumns);
    if (b['columns'] !== undefined) {
      const names = b['columns'];
      if (!Array.isArray(names) || names.length > EXPLORE_LIMITS.summaryColumns) throw badRequest(`columns: a list of at most ${EXPLORE_LIMITS.summaryColumns} column names`);
      columns = names.map((n, i) => {
        const c = view.columns.find((x) => x.name === n);
        if (c === undefined) throw badRequest(`columns[${i}]: this view has no column "${String(n).slice(0, 100)}"`);
        return c;
      });
    }
    try {
      const from = [`SELECT ${selectList(columns)} FROM ${view.relation}`, whereSql(q, view.columns)].filter((s) => s !== '').join('\n');
      return { data: asJson(await summarize((sql) => run(sql, signal, 100_000), from, columns)) };
    } catch (err) {
      throw explained(err, view);
    }
  });

  router.add('GET', `${EXPLORE_PREFIX}/:id/status`, async (ctx) => {
    const view = views.get(ctx.params['id'] ?? '');
    // A failed view still answers its status (what failed is the point of asking).
    await view.fresh().catch((err: unknown) => {
      if (!(err instanceof ApiError && err.httpStatus === 410)) throw err;
    });
    return { data: asJson(view.status()) };
  });

  router.add('GET', `${EXPLORE_PREFIX}/:id/sql`, async (ctx) => {
    const raw = ctx.query.get('query');
    if (raw !== null && raw.length > MAX_QUERY_PARAM) throw badRequest('query: too long');
    let parsed: unknown;
    try {
      parsed = raw === null ? undefined : JSON.parse(raw);
    } catch {
      throw badRequest('query: must be JSON ({ "sort": [...], "filters": [...] })');
    }
    const view = views.get(ctx.params['id'] ?? '');
    await view.fresh();
    const q = parseQuery(parsed, view.columns);
    const where = whereSql(q, view.columns);
    const order = orderSql(q, undefined);
    const notes = [`-- ${view.fileName}: runs in DuckDB from the folder that holds it`];
    if (needsGunzip(view.fileName)) notes.push(`-- DuckDB reads it decompressed: run gunzip -k ${view.fileName} there first`);
    if (view.shown.startsWith('read_xlsx')) notes.push(`-- read_xlsx needs DuckDB's excel extension (INSTALL excel; LOAD excel;); the explorer's own reading of sheets may differ slightly`);
    const sql = [...notes, 'SELECT *', `FROM ${view.shown}`, where, order].filter((s) => s !== '').join('\n');
    return { data: { sql: `${sql};\n` } };
  });

  router.add('POST', `${EXPLORE_PREFIX}/:id/export`, async (ctx) => {
    const b = await body(ctx);
    const { view, q, signal } = await prepare(ctx, b['query'], true);
    const format = b['format'];
    if (format !== 'csv' && format !== 'parquet') throw badRequest('format: csv or parquet');
    const to = b['to'];
    if (typeof to !== 'string' || !isAbsolute(to) || to.length > 4096 || to.includes('\0')) throw badRequest('to: an absolute file path');
    const roots = deps.inPlaceRoots ? deps.inPlaceRoots(leaseOf(ctx)) ?? [] : deps.readRoots;
    const dir = await realpath(dirname(to)).catch(() => undefined);
    if (dir === undefined || !atOrUnderRoots(dir, roots) || !store.mayRead(`${dir}/${basename(to)}`)) {
      throw new ApiError(ErrorCode.INVALID_PARAMS, `to: ${to} is outside the folders this client may write to; export into a workspace folder`);
    }
    const existing = await stat(`${dir}/${basename(to)}`).catch(() => undefined);
    if (existing !== undefined && !existing.isFile()) throw new ApiError(ErrorCode.INVALID_PARAMS, `to: ${to} is not a file`);
    if (view.exporting !== undefined) throw new ApiError(ErrorCode.INVALID_OPERATION, 'an export of this view is running; wait for it or cancel it', 409);
    const abort = new AbortController();
    signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    const job = { fraction: 0, abort };
    view.exporting = job;
    try {
      const rows = await exportRows(store, filtered(view, q), format, `${dir}/${basename(to)}`, abort.signal, (f) => { job.fraction = f; });
      return { data: { rows, path: to } };
    } catch (err) {
      if (abort.signal.aborted) throw new ApiError(ErrorCode.INVALID_OPERATION, 'the export was cancelled; nothing was written', 409);
      throw explained(err, view);
    } finally {
      if (view.exporting === job) view.exporting = undefined;
    }
  });

  router.add('DELETE', `${EXPLORE_PREFIX}/:id/export`, async (ctx) => {
    const view = views.get(ctx.params['id'] ?? '');
    const running = view.exporting;
    running?.abort.abort(new Error('the export was cancelled'));
    return { data: { cancelled: running !== undefined } };
  });

  router.add('DELETE', `${EXPLORE_PREFIX}/:id`, async (ctx) => {
    return { data: { closed: await views.close(ctx.params['id'] ?? '') } };
  });
  return views;
}
