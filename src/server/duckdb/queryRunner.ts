/**
 * Runs one SQL script on its own DuckDB connection with a deadline, an AbortSignal, a row cap and a
 * byte cap. A connection per query keeps `interrupt()` precise: it stops exactly this query and
 * nothing else. Rows are converted one at a time, never a whole chunk at once: a chunk is 2,048 rows,
 * and of megabyte cells that alone is gigabytes of JS strings.
 */
import { DuckDBTypeId, type DuckDBConnection, type DuckDBInstance, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import type { ColumnInfo } from '../engine';
import { toPlain, type PlainValue } from './plainValues';
import { cutValue, plainSize } from './resultSize';

/** A bindable parameter value. */
export type QueryParam = string | number | boolean | bigint | null;

export interface QueryOptions {
  /** Stops the query (interrupting DuckDB) when aborted; the promise rejects with the abort reason. */
  signal?: AbortSignal;
  /** Interrupts the query after this many milliseconds (default 30 s). */
  timeoutMs?: number;
  /** At most this many rows are returned (default 10,000); `truncated` says whether more existed. */
  maxRows?: number;
  /**
   * Rows stop once their cells add up to this many bytes as text (default 64 MiB); `truncated` is
   * then set and `truncatedBy` is `'bytes'`. The first row is always kept.
   */
  maxBytes?: number;
  /** A cell longer than this (as text) is cut to it and ends with `…` (default: no cap). */
  maxCellBytes?: number;
  /**
   * The statement already cuts its text, blob and list cells to `maxCellBytes` + 1 (its caller knows
   * the columns' types), so it is not wrapped and prepared a second time to learn them; the cells
   * are still marked as cut here.
   */
  presized?: boolean;
}

export interface QueryResult {
  columns: ColumnInfo[];
  rows: unknown[][];
  /** True when the result had more rows than were returned (see `truncatedBy`). */
  truncated: boolean;
  /** Which cap stopped the rows: the row count or the bytes. */
  truncatedBy?: 'rows' | 'bytes';
  /** How many cells were longer than `maxCellBytes` and were cut. */
  cellsCut?: number;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ROWS = 10_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** The query ran longer than its deadline and was interrupted. */
export class QueryTimeoutError extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the query took longer than ${timeoutMs} ms and was stopped`);
    this.name = 'QueryTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The SQL failed in DuckDB (syntax, unknown column, conversion...). `message` is DuckDB's text. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/**
 * A query whose result limits (bytes, cell size) were set ran DuckDB out of memory before any row
 * could be cut to size. DuckDB computes 2,048 rows at a time, so rows of megabyte values (a text
 * built row by row) fill its memory limit within one batch of rows; no cap on what is read can help,
 * and rewriting the functions that build such text would change what legitimate queries return.
 */
export class ResultTooLargeError extends QueryError {
  constructor(cause: string) {
    super(`the result is too large to compute: its values outgrew the memory DuckDB may use before they could be cut to size (DuckDB works on 2,048 rows at a time, so values of megabytes each cannot be held); shorten long values inside the query, for example with left(value, 1000). DuckDB says: ${cause}`);
    this.name = 'ResultTooLargeError';
  }
}

/** An abort reason as an Error whose name is `AbortError`, as fetch and streams do. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const e = new Error(typeof reason === 'string' ? reason : 'the operation was aborted');
  e.name = 'AbortError';
  return e;
}

/**
 * Arms interrupts for `conn`: on abort or after `timeoutMs`. `settle` maps a DuckDB error raised by
 * the interrupt to the right error type; `dispose` disarms.
 */
export function armInterrupts(conn: DuckDBConnection, signal: AbortSignal | undefined, timeoutMs: number | undefined): {
  settle(err: unknown): Error;
  dispose(): void;
} {
  let timedOut = false;
  const onAbort = (): void => conn.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)
    ? setTimeout(() => { timedOut = true; conn.interrupt(); }, timeoutMs)
    : undefined;
  return {
    settle(err: unknown): Error {
      if (signal?.aborted) return abortError(signal);
      if (timedOut && timeoutMs !== undefined) return new QueryTimeoutError(timeoutMs);
      return err instanceof Error ? new QueryError(err.message) : new QueryError(String(err));
    },
    dispose(): void {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * DuckDB buffers a streamed result ahead of the reader, and measures that buffer without the strings'
 * text: a result of megabyte strings was computed whole (10 GB) before its first chunk arrived. A
 * small buffer (the store allows this one setting on locked connections) keeps a few chunks ahead.
 */
const STREAM_BUFFER = '64KB';

/**
 * `sql` (one SELECT) with its long cells cut inside DuckDB, one character past `cap` so the reader
 * still sees which were cut: strings and blobs to `cap + 1`, lists and arrays to `cap + 1` items.
 * Cutting only after DuckDB returns rows is too late, since the rows it buffers hold the whole text.
 * Columns are read by position (`#n`), so duplicate or odd names keep their names and order.
 */
function withCellsCut(sql: string, st: DuckDBPreparedStatement, cap: number): string | undefined {
  const columns = Array.from({ length: st.columnCount }, (_, i) => {
    const id = st.columnTypeId(i);
    const cut: CellCut = id === DuckDBTypeId.VARCHAR ? 'chars' : id === DuckDBTypeId.BLOB || id === DuckDBTypeId.LIST || id === DuckDBTypeId.ARRAY ? 'items' : undefined;
    return { name: st.columnName(i), cut };
  });
  return cutColumns(sql, columns, cap);
}

/** How a column's cells are cut: text by characters, blobs and lists by items; undefined: kept whole. */
export type CellCut = 'chars' | 'items' | undefined;

/**
 * `sql` (one SELECT whose columns are `columns`, in order) with the cells of the columns to cut cut
 * to `cap + 1`; undefined when no column is cut. Columns are read by position (`#n`), so duplicate
 * or odd names keep their names and order.
 */
export function cutColumns(sql: string, columns: ReadonlyArray<{ name: string; cut: CellCut }>, cap: number): string | undefined {
  if (!columns.some((c) => c.cut !== undefined)) return undefined;
  const n = Math.floor(cap) + 1;
  const select = columns.map((c, i) => {
    const name = `"${c.name.replace(/"/g, '""')}"`;
    if (c.cut === 'chars') return `left(#${i + 1}, ${n}) AS ${name}`;
    if (c.cut === 'items') return `#${i + 1}[1:${n}] AS ${name}`;
    return `#${i + 1} AS ${name}`;
  });
  // The newline ends a trailing line comment; `body` has no terminating `;` (see statementBody).
  return `SELECT ${select.join(', ')} FROM (\n${sql}\n) AS capped_result`;
}

/** DuckDB's own parse of `sql` (json_serialize_sql), or undefined when it parses no SELECT. */
async function parsed(conn: DuckDBConnection, sql: string): Promise<string | undefined> {
  const rows = await conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]).then((r) => r.getRows(), () => []);
  const json = rows[0]?.[0];
  if (typeof json !== 'string') return undefined;
  try {
    const tree = JSON.parse(json) as { error?: boolean; statements?: unknown[] };
    return tree.error === true || tree.statements?.length !== 1 ? undefined : json;
  } catch {
    return undefined;
  }
}

/** How many statements DuckDB's splitter finds in `sql`; -1 when it cannot split it. */
async function statementCount(conn: DuckDBConnection, sql: string): Promise<number> {
  return conn.extractStatements(sql).then((x) => x.count, () => -1);
}

/**
 * `sql` (one statement) without its terminating `;` and what follows it (comments, blanks), so it can
 * stand in a subquery. A `;` is the cut only when the text before it is that very statement: for a
 * SELECT, DuckDB parses both to the same tree; otherwise the text before parses as one statement and
 * the text after as none. Looking only after the `;` is not enough: in `SELECT 'a;--' AS x` what
 * follows is a comment, but the `;` lies inside a string.
 */
async function statementBody(conn: DuckDBConnection, sql: string): Promise<string> {
  const semis: number[] = [];
  for (let i = sql.lastIndexOf(';'); i >= 0 && semis.length < 20; i = sql.lastIndexOf(';', i - 1)) semis.push(i);
  if (semis.length === 0) return sql;
  const whole = await parsed(conn, sql);
  // The earliest cut that keeps the statement whole also drops every comment after it.
  for (const i of semis.reverse()) {
    const before = sql.slice(0, i);
    if (whole !== undefined) {
      if ((await parsed(conn, before)) === whole) return before;
      continue;
    }
    // DuckDB refuses to split a text with no statement at all, so a known one goes first.
    if ((await statementCount(conn, before)) === 1 && (await statementCount(conn, `SELECT 1;${sql.slice(i + 1)}`)) === 1) return before;
  }
  return sql;
}

/**
 * Runs a script (one or more statements) and returns the last statement's rows, converted to plain
 * JS. Parameters bind to the last statement only, since they belong to the query being read.
 */
export async function runQuery(
  instance: DuckDBInstance, sql: string, params: readonly QueryParam[] | undefined, options: QueryOptions = {},
  /** Told when the connection starts and stops being used (lets the owner interrupt it on close). */
  onConnection?: (conn: DuckDBConnection, active: boolean) => void,
): Promise<QueryResult> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const maxRows = Math.max(0, Math.floor(options.maxRows ?? DEFAULT_MAX_ROWS));
  const maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxCellBytes = Math.max(1, options.maxCellBytes ?? Number.POSITIVE_INFINITY);
  const conn = await instance.connect();
  onConnection?.(conn, true);
  const guard = armInterrupts(conn, signal, options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  try {
    const extracted = await conn.extractStatements(sql);
    if (extracted.count === 0) throw new QueryError('the query is empty');
    for (let i = 0; i < extracted.count - 1; i++) await (await extracted.prepare(i)).run();
    let last = await extracted.prepare(extracted.count - 1);
    if (params !== undefined && params.length > 0) last.bind(params as DuckDBValue[]);
    else if (extracted.count === 1 && Number.isFinite(maxCellBytes) && options.presized !== true) {
      const capped = withCellsCut(await statementBody(conn, sql), last, maxCellBytes);
      // Run uncut it must not: its rows could be gigabytes before the first reached us.
      if (capped !== undefined) last = await conn.prepare(capped).catch((err: unknown) => {
        throw new QueryError(`the query could not be run with its result limits: ${err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err)}`);
      });
    }
    await conn.run(`SET streaming_buffer_size = '${STREAM_BUFFER}'`).catch(() => undefined);
    const result = await last.stream();
    const columns: ColumnInfo[] = result.columnNames().map((name, i) => ({ name, type: result.columnType(i).toString() }));
    const out: QueryResult = { columns, rows: [], truncated: false };
    let bytes = 0;
    let cellsCut = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const vectors = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c));
      for (let r = 0; r < chunk.rowCount && out.truncatedBy === undefined; r++) {
        if (out.rows.length >= maxRows) {
          out.truncatedBy = 'rows';
          break;
        }
        const row: PlainValue[] = [];
        let rowBytes = 0;
        let rowCut = 0;
        for (const vector of vectors) {
          let v = toPlain(vector.getItem(r));
          let size = plainSize(v, maxCellBytes);
          if (size > maxCellBytes) {
            v = cutValue(v, maxCellBytes);
            size = v.length;
            rowCut++;
          }
          row.push(v);
          rowBytes += size;
        }
        if (out.rows.length > 0 && bytes + rowBytes > maxBytes) {
          out.truncatedBy = 'bytes';
          break;
        }
        bytes += rowBytes;
        cellsCut += rowCut;
        out.rows.push(row);
      }
      if (out.truncatedBy !== undefined) break;
    }
    out.truncated = out.truncatedBy !== undefined;
    if (cellsCut > 0) out.cellsCut = cellsCut;
    return out;
  } catch (err) {
    const settled = guard.settle(err);
    const first = settled.message.split('\n')[0] ?? '';
    if (settled instanceof QueryError && Number.isFinite(maxCellBytes) && /^Out of Memory Error/i.test(first)) throw new ResultTooLargeError(first);
    throw settled;
  } finally {
    guard.dispose();
    onConnection?.(conn, false);
    conn.disconnectSync();
  }
}
