/**
 * Runs one SQL script on its own DuckDB connection with a deadline, an AbortSignal and a row cap.
 * A connection per query keeps `interrupt()` precise: it stops exactly this query and nothing else.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import type { ColumnInfo } from '../engine';
import { toPlain } from './plainValues';

/** A bindable parameter value. */
export type QueryParam = string | number | boolean | bigint | null;

export interface QueryOptions {
  /** Stops the query (interrupting DuckDB) when aborted; the promise rejects with the abort reason. */
  signal?: AbortSignal;
  /** Interrupts the query after this many milliseconds (default 30 s). */
  timeoutMs?: number;
  /** At most this many rows are returned (default 10,000); `truncated` says whether more existed. */
  maxRows?: number;
}

export interface QueryResult {
  columns: ColumnInfo[];
  rows: unknown[][];
  /** True when the result had more rows than `maxRows`. */
  truncated: boolean;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ROWS = 10_000;

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
  const conn = await instance.connect();
  onConnection?.(conn, true);
  const guard = armInterrupts(conn, signal, options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  try {
    const extracted = await conn.extractStatements(sql);
    if (extracted.count === 0) throw new QueryError('the query is empty');
    for (let i = 0; i < extracted.count - 1; i++) await (await extracted.prepare(i)).run();
    const last = await extracted.prepare(extracted.count - 1);
    if (params !== undefined && params.length > 0) last.bind(params as DuckDBValue[]);
    const result = await last.stream();
    const columns: ColumnInfo[] = result.columnNames().map((name, i) => ({ name, type: result.columnType(i).toString() }));
    const rows: unknown[][] = [];
    let truncated = false;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const chunkRows = chunk.getRows();
      const room = maxRows - rows.length;
      for (let r = 0; r < Math.min(room, chunkRows.length); r++) rows.push((chunkRows[r] ?? []).map(toPlain));
      if (chunkRows.length > room) {
        truncated = true;
        break;
      }
    }
    return { columns, rows, truncated };
  } catch (err) {
    throw guard.settle(err);
  } finally {
    guard.dispose();
    onConnection?.(conn, false);
    conn.disconnectSync();
  }
}
