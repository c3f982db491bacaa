/**
 * Runs answer statements safely: each executed statement is the body over the ingested-table CTEs,
 * checked by the SQL guard (only the session's tables), then run with a deadline and caps on rows,
 * bytes and cell size. The shown twin of each statement (same body over the user's files) is
 * collected for the CODE block.
 */
import type { DuckDbStore, QueryResult } from '../duckdb/duckDbStore';
import { executedCte, shownCte } from './recipe';
import { composeSql, type Statement } from './sqlBuilder';
import { guardSql, type SerializeSql } from './sqlGuard';
import type { TableMeta } from './types';

/** Per-statement deadline: answers stay interactive, and a runaway query cannot hold the service. */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** Result rows kept per statement (the TABLE file); more are reported as truncated. */
export const MAX_RESULT_ROWS = 10_000;
/**
 * Result bytes kept per statement, whatever the row count: a statement (a model's above all) can
 * return rows of megabytes each, and 10,000 of them took the service to 10 GB.
 */
export const MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** A cell longer than this is cut (with `…`): a table cell of more is never read as one. */
export const MAX_CELL_BYTES = 64 * 1024;
const CAPS = { maxBytes: MAX_RESULT_BYTES, maxCellBytes: MAX_CELL_BYTES };

export interface Ran {
  comment: string;
  executed: string;
  shown: string;
  result: QueryResult;
}

/** json_serialize_sql through the store (DuckDB's own parser). */
export function storeSerializer(store: DuckDbStore, signal?: AbortSignal): SerializeSql {
  return async (sql) => {
    const r = await store.query('SELECT json_serialize_sql($1::VARCHAR)', [sql], { signal, timeoutMs: 10_000, maxRows: 1 });
    const v = r.rows[0]?.[0];
    if (typeof v !== 'string') throw new Error('json_serialize_sql returned no text');
    return v;
  };
}

/**
 * Verdicts of the guard by statement and allowed tables: the verdict is a pure function of both,
 * and a repeated question (or a follow-up re-running a statement) should not pay for the parse.
 * Only accepted statements are remembered.
 */
const accepted = new Set<string>();
const ACCEPTED_LIMIT = 512;

export class Executor {
  /** Every statement that ran, in order (for the CODE block). */
  readonly ran: Ran[] = [];
  private readonly serialize: SerializeSql;

  constructor(
    private readonly store: DuckDbStore,
    /** Internal names of the session's tables: the only tables any statement may read. */
    private readonly allowed: readonly string[],
    private readonly signal: AbortSignal,
  ) {
    this.serialize = storeSerializer(store, signal);
  }

  private async guard(sql: string): Promise<void> {
    const key = `${this.allowed.join('\u0000')}\u0001${sql}`;
    if (accepted.has(key)) return;
    // A parse stopped by the job's cancellation is the cancellation, not a refused statement.
    await guardSql(sql, this.allowed, this.serialize).catch((err: unknown) => {
      this.signal.throwIfAborted();
      throw err;
    });
    if (accepted.size >= ACCEPTED_LIMIT) accepted.clear();
    accepted.add(key);
  }

  /** Guards and runs one statement over `tables`; records it. */
  async run(tables: readonly TableMeta[], st: Statement, maxRows = MAX_RESULT_ROWS): Promise<QueryResult> {
    const executed = composeSql(tables.map((t) => executedCte(t, st.columns)), st);
    await this.guard(executed);
    this.signal.throwIfAborted();
    const result = await this.store.query(executed, [], { signal: this.signal, timeoutMs: STATEMENT_TIMEOUT_MS, maxRows, ...CAPS });
    this.ran.push({ comment: st.comment, executed, shown: composeSql(tables.map((t) => shownCte(t, st.columns)), st), result });
    return result;
  }

  /** Runs SQL written elsewhere (a model): guard, deadline, row, byte and cell caps apply the same way. */
  async runRaw(executed: string, shown: string, comment: string, maxRows = MAX_RESULT_ROWS): Promise<QueryResult> {
    await this.guard(executed);
    this.signal.throwIfAborted();
    const result = await this.store.query(executed, [], { signal: this.signal, timeoutMs: STATEMENT_TIMEOUT_MS, maxRows, ...CAPS });
    this.ran.push({ comment, executed, shown, result });
    return result;
  }

  /** Forgets what ran (a failed attempt whose SQL should not be shown). */
  reset(): void {
    this.ran.length = 0;
  }
}
