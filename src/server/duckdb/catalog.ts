/**
 * The store's own bookkeeping inside DuckDB: what each source produced (so `describe` survives a
 * restart) and the text of text sources. Writing the catalog row in the same transaction as the
 * tables means a crash mid-ingest leaves either the old state or the new one, never a mix.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnInfo, DateConversion, IngestedTable, IngestResult, InPlaceCache, TableOrigin } from '../engine';
import { asArray, asObject, readInteger, readOptionalString, readString, tryParseJson } from '../../shared/json';
import { convertDateLikeColumns, type ApplyConversion } from './dateColumns';
import { cacheSelect } from './inPlaceCache';
import { gatherStats, type ColumnStats, type TableStats } from './scanStats';
import { belongsToPrefix, quoteIdent, tablePrefixFor } from './sqlText';

const META = 'tda_meta';
const CATALOG = `${META}.catalog`;
const DOCUMENTS = `${META}.documents`;

/** Creates the bookkeeping tables if missing. Idempotent. */
export async function ensureCatalog(conn: DuckDBConnection): Promise<void> {
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${META}`);
  // No PRIMARY KEY: delete-then-insert of the same key in one transaction trips DuckDB's
  // eager constraint check in some versions, and the store serialises work per source anyway.
  await conn.run(`CREATE TABLE IF NOT EXISTS ${CATALOG} (source_id VARCHAR NOT NULL, result VARCHAR NOT NULL, ingested_at TIMESTAMPTZ NOT NULL)`);
  await conn.run(`CREATE TABLE IF NOT EXISTS ${DOCUMENTS} (source_id VARCHAR NOT NULL, body VARCHAR NOT NULL)`);
}

/** What a build step made, before the catalog describes it. */
export type Built =
  | { kind: 'tables'; tables: Array<{ table: string; sheet?: string; origin?: TableOrigin; view?: BuiltView }> }
  | { kind: 'text'; text: string };

/**
 * A view over a file read in place: the SELECT it is defined by (checked and counted by the catalog;
 * date conversions redefine it, and `body` follows).
 */
export interface BuiltView {
  body: string;
}

const READERS: ReadonlyArray<TableOrigin['reader']> = ['read_csv', 'read_json_auto', 'read_parquet', 'read_xlsx'];

/** A recorded origin, or undefined when absent or malformed (the table itself stays usable). */
function parseOrigin(raw: unknown): TableOrigin | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    const o = asObject(raw, 'origin');
    const reader = READERS.find((r) => r === o['reader']);
    if (reader === undefined) return undefined;
    const options = asArray(o['options'], 'options').map((x) => (typeof x === 'string' ? x : ''));
    const dateColumns: DateConversion[] = asArray(o['dateColumns'] ?? [], 'dateColumns').map((d) => {
      const dc = asObject(d, 'dateColumn');
      const type = dc['type'] === 'TIMESTAMP' ? 'TIMESTAMP' : 'DATE';
      return { column: readString(dc, 'column'), format: readString(dc, 'format'), type };
    });
    const origin: TableOrigin = { reader, options: options.filter((x) => x !== ''), dateColumns };
    if (o['approximate'] === true) origin.approximate = true;
    if (Array.isArray(o['select'])) {
      const select = asArray(o['select'], 'select').filter((x): x is string => typeof x === 'string' && x !== '');
      if (select.length > 0) origin.select = select;
    }
    return origin;
  } catch {
    return undefined;
  }
}

/** Recorded scan statistics, or undefined when absent or malformed (the overview then profiles exactly). */
function parseStats(raw: unknown): TableStats | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    const o = asObject(raw, 'stats');
    const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    const columns: ColumnStats[] = asArray(o['columns'], 'columns').map((c) => {
      const co = asObject(c, 'column');
      const s: ColumnStats = { name: readString(co, 'name'), nonNull: readInteger(co, 'nonNull'), min: text(co['min']), max: text(co['max']), mean: text(co['mean']) };
      if (Array.isArray(co['values'])) {
        s.values = asArray(co['values'], 'values').map((v) => String(v));
        s.complete = co['complete'] === true;
        if (co['cut'] === true) s.cut = true;
      }
      return s;
    });
    return { rows: readInteger(o, 'rows'), columns };
  } catch {
    return undefined;
  }
}

/** A recorded columnar copy, or undefined when absent or malformed (the view then reads the file). */
function parseCache(raw: unknown): InPlaceCache | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    const o = asObject(raw, 'cache');
    return {
      path: readString(o, 'path'), bytes: readInteger(o, 'bytes'), file: readString(o, 'file'), fileBytes: readInteger(o, 'fileBytes'),
      fileMtimeMs: typeof o['fileMtimeMs'] === 'number' ? o['fileMtimeMs'] : NaN, fileSelect: readString(o, 'fileSelect'),
    };
  } catch {
    return undefined;
  }
}

function parseResult(json: string): IngestResult | undefined {
  try {
    const o = asObject(tryParseJson(json), 'result');
    if (o['kind'] === 'text') return { kind: 'text', chars: readInteger(o, 'chars') };
    if (o['kind'] !== 'tables') return undefined;
    const tables: IngestedTable[] = asArray(o['tables'], 'tables').map((raw, i) => {
      const t = asObject(raw, `tables[${i}]`);
      const columns: ColumnInfo[] = asArray(t['columns'], 'columns').map((c) => {
        const co = asObject(c, 'column');
        return { name: readString(co, 'name'), type: readString(co, 'type') };
      });
      const table: IngestedTable = { table: readString(t, 'table'), rowCount: readInteger(t, 'rowCount'), columns };
      const sheet = readOptionalString(t, 'sheet');
      if (sheet !== undefined) table.sheet = sheet;
      const origin = parseOrigin(t['origin']);
      if (origin !== undefined) table.origin = origin;
      const inPlace = t['inPlace'];
      if (inPlace !== null && typeof inPlace === 'object' && typeof (inPlace as Record<string, unknown>)['version'] === 'number') {
        table.inPlace = { version: (inPlace as Record<string, number>)['version'] as number };
      }
      const stats = parseStats(t['stats']);
      if (stats !== undefined) table.stats = stats;
      const cache = parseCache(t['cache']);
      if (cache !== undefined && Number.isFinite(cache.fileMtimeMs)) table.cache = cache;
      return table;
    });
    return { kind: 'tables', tables };
  } catch {
    return undefined;
  }
}

/** The catalog entry of a source, or undefined if it was never (fully) ingested. */
export async function readCatalog(conn: DuckDBConnection, sourceId: string): Promise<IngestResult | undefined> {
  const reader = await conn.runAndReadAll(
    `SELECT result FROM ${CATALOG} WHERE source_id = $1 ORDER BY ingested_at DESC LIMIT 1`, [sourceId],
  );
  const json = reader.getRows()[0]?.[0];
  return typeof json === 'string' ? parseResult(json) : undefined;
}

export async function readDocument(conn: DuckDBConnection, sourceId: string): Promise<string | undefined> {
  const reader = await conn.runAndReadAll(`SELECT body FROM ${DOCUMENTS} WHERE source_id = $1 LIMIT 1`, [sourceId]);
  const body = reader.getRows()[0]?.[0];
  return typeof body === 'string' ? body : undefined;
}

/** Columns (name and DuckDB type) and row count of a table. */
export async function describeTable(conn: DuckDBConnection, table: string, sheet?: string, knownRows?: number): Promise<IngestedTable> {
  // Result metadata of an empty scan: much cheaper than querying duckdb_columns().
  const cols = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
  const columns = cols.columnNames().map((name, i) => ({ name, type: cols.columnType(i).toString() }));
  // A view over a large file already counted its rows while it was checked: no second scan.
  const rows = knownRows ?? Number((await conn.runAndReadAll(`SELECT count(*) FROM ${quoteIdent(table)}`)).getRows()[0]?.[0] ?? 0);
  const out: IngestedTable = { table, rowCount: rows, columns };
  if (sheet !== undefined) out.sheet = sheet;
  return out;
}

/**
 * Removes every object of a source inside the caller's transaction: the tables the catalog lists
 * plus any table carrying the source's prefix (leftovers of an older layout or a lost catalog row).
 */
async function dropObjects(conn: DuckDBConnection, sourceId: string): Promise<void> {
  const tables = new Set<string>();
  const known = await readCatalog(conn, sourceId);
  if (known?.kind === 'tables') for (const t of known.tables) tables.add(t.table);
  const prefix = tablePrefixFor(sourceId);
  const all = await conn.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND starts_with(table_name, $1)`, [prefix],
  );
  for (const r of all.getRows()) {
    const name = String(r[0]);
    if (belongsToPrefix(name, prefix)) tables.add(name);
  }
  // Files read in place are views; DROP TABLE refuses a view, so they are dropped as views.
  const viewRows = await conn.runAndReadAll(
    `SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal AND starts_with(view_name, $1)`, [prefix],
  );
  const views = new Set(viewRows.getRows().map((r) => String(r[0])).filter((n) => belongsToPrefix(n, prefix)));
  for (const t of tables) if (!views.has(t)) await conn.run(`DROP TABLE IF EXISTS ${quoteIdent(t)}`);
  for (const v of views) await conn.run(`DROP VIEW IF EXISTS ${quoteIdent(v)}`);
  await conn.run(`DELETE FROM ${CATALOG} WHERE source_id = $1`, [sourceId]);
  await conn.run(`DELETE FROM ${DOCUMENTS} WHERE source_id = $1`, [sourceId]);
}

async function inTransaction<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await conn.run('BEGIN TRANSACTION');
  try {
    const out = await fn();
    await conn.run('COMMIT');
    return out;
  } catch (err) {
    try {
      await conn.run('ROLLBACK');
    } catch {
      // The transaction may already be gone (interrupt, connection error); the original error matters.
    }
    throw err;
  }
}

/** Drops everything made from a source, atomically. */
export async function dropSource(conn: DuckDBConnection, sourceId: string): Promise<void> {
  await inTransaction(conn, () => dropObjects(conn, sourceId));
}

/** A date conversion on a view: the view is defined again with the column converted. */
function redefineView(conn: DuckDBConnection, view: string, built: BuiltView): ApplyConversion {
  let body = built.body;
  return async (column, _target, expr) => {
    body = `SELECT * REPLACE (${expr} AS ${quoteIdent(column)}) FROM (${body})`;
    await conn.run(`CREATE OR REPLACE VIEW ${quoteIdent(view)} AS ${body}`);
    built.body = body;
  };
}

/**
 * Replaces a source's objects in one transaction: drop the old ones, run `build` (which creates the
 * new tables or returns the text), refine and describe the tables, record the catalog entry, commit.
 * On any error the transaction rolls back and the previous state stays as it was.
 */
export async function replaceSource(
  conn: DuckDBConnection, sourceId: string, signal: AbortSignal, build: () => Promise<Built>,
): Promise<IngestResult> {
  return inTransaction(conn, async () => {
    // An interrupt only stops a statement that is running; these checks cover the gaps between.
    signal.throwIfAborted();
    await dropObjects(conn, sourceId);
    const built = await build();
    signal.throwIfAborted();
    let result: IngestResult;
    if (built.kind === 'text') {
      await conn.run(`INSERT INTO ${DOCUMENTS} VALUES ($1, $2)`, [sourceId, built.text]);
      result = { kind: 'text', chars: built.text.length };
    } else {
      const tables: IngestedTable[] = [];
      for (const t of built.tables) {
        const dates = await convertDateLikeColumns(conn, t.table, t.view === undefined ? undefined : redefineView(conn, t.table, t.view));
        let described: IngestedTable;
        if (t.view === undefined) described = await describeTable(conn, t.table, t.sheet);
        else {
          // A view is read once here, with the dates already converted: every value is checked
          // against its column's type, the rows are counted, and the overview's statistics kept.
          const shape = await describeTable(conn, t.table, t.sheet, 0);
          const stats = await gatherStats(conn, t.table, shape.columns, signal, t.origin?.reader === 'read_parquet');
          described = { ...shape, rowCount: stats.rows, inPlace: { version: Date.now() }, stats };
        }
        if (t.origin !== undefined) described.origin = { ...t.origin, dateColumns: [...t.origin.dateColumns, ...dates] };
        tables.push(described);
      }
      result = { kind: 'tables', tables };
    }
    await conn.run(`INSERT INTO ${CATALOG} VALUES ($1, $2, now())`, [sourceId, JSON.stringify(result)]);
    signal.throwIfAborted();
    return result;
  });
}

/**
 * Puts a source's views back over their files (the copy no longer stands for the file, or is gone)
 * and records that, in one transaction. Returns the source's entry as it now is.
 */
export async function forgetCaches(conn: DuckDBConnection, sourceId: string, result: IngestResult): Promise<IngestResult> {
  if (result.kind !== 'tables') return result;
  const tables = result.tables.map((t) => {
    const { cache, ...rest } = t;
    return { table: rest, cache };
  });
  return inTransaction(conn, async () => {
    for (const { table, cache } of tables) if (cache !== undefined) await conn.run(`CREATE OR REPLACE VIEW ${quoteIdent(table.table)} AS ${cache.fileSelect}`);
    const out: IngestResult = { kind: 'tables', tables: tables.map((t) => t.table) };
    await conn.run(`DELETE FROM ${CATALOG} WHERE source_id = $1`, [sourceId]);
    await conn.run(`INSERT INTO ${CATALOG} VALUES ($1, $2, now())`, [sourceId, JSON.stringify(out)]);
    return out;
  });
}

/**
 * Swaps a view to its columnar copy and records the copy in the source's entry, in one transaction,
 * only while the entry is still the read that was copied (its table's `inPlace.version`) and has no
 * copy yet. Returns the entry as it now is, or undefined when nothing was swapped (the source was
 * dropped or read again meanwhile).
 */
export async function adoptCache(conn: DuckDBConnection, sourceId: string, table: string, version: number, cache: InPlaceCache): Promise<IngestResult | undefined> {
  return inTransaction(conn, async () => {
    const result = await readCatalog(conn, sourceId);
    if (result?.kind !== 'tables') return undefined;
    const t = result.tables.find((x) => x.table === table);
    if (t === undefined || t.inPlace?.version !== version || t.cache !== undefined) return undefined;
    await conn.run(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS ${cacheSelect(cache.path)}`);
    t.cache = cache;
    await conn.run(`DELETE FROM ${CATALOG} WHERE source_id = $1`, [sourceId]);
    await conn.run(`INSERT INTO ${CATALOG} VALUES ($1, $2, now())`, [sourceId, JSON.stringify(result)]);
    return result;
  });
}

/** Every source with a catalog entry. */
export async function catalogSources(conn: DuckDBConnection): Promise<string[]> {
  return (await conn.runAndReadAll(`SELECT DISTINCT source_id FROM ${CATALOG}`)).getRows().map((r) => String(r[0]));
}

/** The columnar copies every source's entry records (to sweep the others from the cache folder). */
export async function recordedCaches(conn: DuckDBConnection): Promise<Set<string>> {
  const reader = await conn.runAndReadAll(`SELECT result FROM ${CATALOG}`);
  const out = new Set<string>();
  for (const r of reader.getRows()) {
    const result = typeof r[0] === 'string' ? parseResult(r[0]) : undefined;
    if (result?.kind === 'tables') for (const t of result.tables) if (t.cache !== undefined) out.add(t.cache.path);
  }
  return out;
}
