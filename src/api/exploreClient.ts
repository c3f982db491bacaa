/**
 * A small typed client of the local service's Data Explorer routes (`/local/v1/explore/...`,
 * server/explore/exploreRoutes.ts). They exist only on the embedded local service, beside its
 * lease routes, so this is not part of {@link TeamDataClient}: it names the caller's lease the way
 * the API transport does (`x-team-data-lease`), because a view on a file in place may only be
 * opened under the folders that lease registered, and goes with the lease.
 *
 * Every answer is checked against the shared guards before it is returned: the service is another
 * process and its answers are data, not trusted types. Failures are {@link ExploreCallError}s with
 * the HTTP status to switch on (400 bad request, 404 view gone, 409 still reading or busy, 410 the
 * file was deleted or no longer reads, 503 a query that took too long) and the service's own words.
 */
import type { ColumnSummary, ExploreOpened, ExplorePage, ExploreQuery, ExploreStatus } from '../shared/explore';
import { isColumnSummary, isExploreOpened, isExplorePage, isExploreStatus } from '../shared/explorerGuards';
import { arrayOf, int, shape, str, type Guard } from '../shared/guardKit';
import { HEADER_LOCAL_LEASE } from './transport';

export interface ExploreEndpoint {
  baseUrl: string;
  apiKey: string;
  /** The caller's lease on the shared service, read at each call (it changes after a restart). */
  lease?: () => string | undefined;
}

export type ExploreTarget = { path: string; sheet?: string } | { datasourceId: string; sheet?: string };

export class ExploreCallError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'ExploreCallError';
  }
}

const EXPLORE_PATH = '/local/v1/explore';
const DEFAULT_TIMEOUT_MS = 90_000;

const isCount: Guard<{ matching: number }> = shape({ matching: int(0, Number.MAX_SAFE_INTEGER) });
const isSql: Guard<{ sql: string }> = shape({ sql: str(1_000_000) });
const isExported: Guard<{ rows: number; path: string }> = shape({ rows: int(0, Number.MAX_SAFE_INTEGER), path: str(4096) });
const isCancelled: Guard<{ cancelled: boolean }> = (v): v is { cancelled: boolean } => typeof v === 'object' && v !== null && typeof (v as { cancelled?: unknown }).cancelled === 'boolean';
const isSummaries: Guard<ColumnSummary[]> = arrayOf(isColumnSummary, 20_000);

export interface CallOptions {
  signal?: AbortSignal;
  /** Milliseconds before the call is given up (an export passes a long one). */
  timeoutMs?: number;
}

export class ExploreClient {
  constructor(private readonly endpoint: ExploreEndpoint) {}

  /** Opens a view on a file under the lease's folders, or on a data source of the service. */
  open(target: ExploreTarget, opts?: CallOptions): Promise<ExploreOpened> {
    return this.call('POST', '/open', target, isExploreOpened, 'a view', opts);
  }

  rows(viewId: string, offset: number, limit: number, query: ExploreQuery, opts?: CallOptions): Promise<ExplorePage> {
    return this.call('POST', `/${enc(viewId)}/rows`, { offset, limit, query }, isExplorePage, 'a page of rows', opts);
  }

  async count(viewId: string, query: ExploreQuery, opts?: CallOptions): Promise<number> {
    return (await this.call('POST', `/${enc(viewId)}/count`, { query }, isCount, 'a count', opts)).matching;
  }

  summary(viewId: string, query: ExploreQuery, opts?: CallOptions): Promise<ColumnSummary[]> {
    return this.call('POST', `/${enc(viewId)}/summary`, { query }, isSummaries, 'a summary', opts);
  }

  status(viewId: string, opts?: CallOptions): Promise<ExploreStatus> {
    return this.call('GET', `/${enc(viewId)}/status`, undefined, isExploreStatus, 'a status', opts);
  }

  /** The view's DuckDB SQL, run against the file's own name. */
  async sql(viewId: string, query: ExploreQuery, opts?: CallOptions): Promise<string> {
    return (await this.call('GET', `/${enc(viewId)}/sql?query=${encodeURIComponent(JSON.stringify(query))}`, undefined, isSql, 'the SQL', opts)).sql;
  }

  /** Writes the view to `to` (an absolute path under the lease's folders); nothing is left on failure or cancel. */
  export(viewId: string, query: ExploreQuery, format: 'csv' | 'parquet', to: string, opts?: CallOptions): Promise<{ rows: number; path: string }> {
    return this.call('POST', `/${enc(viewId)}/export`, { query, format, to }, isExported, 'the export', { timeoutMs: 24 * 3600_000, ...opts });
  }

  /** Stops the view's running export; whether one was running. */
  async cancelExport(viewId: string, opts?: CallOptions): Promise<boolean> {
    return (await this.call('DELETE', `/${enc(viewId)}/export`, undefined, isCancelled, 'the cancel', opts)).cancelled;
  }

  /** Closes the view (its DuckDB relation and file watch go). */
  async close(viewId: string, opts?: CallOptions): Promise<void> {
    await this.call('DELETE', `/${enc(viewId)}`, undefined, (v): v is unknown => true, 'the close', opts);
  }

  private async call<T>(method: string, path: string, body: unknown, guard: Guard<T>, what: string, opts: CallOptions = {}): Promise<T> {
    const lease = this.endpoint.lease?.();
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.baseUrl.replace(/\/+$/, '')}${EXPLORE_PATH}${path}`, {
        method,
        headers: {
          'x-pd-api-key': this.endpoint.apiKey,
          ...(lease !== undefined ? { [HEADER_LOCAL_LEASE]: lease } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new ExploreCallError('cancelled', 0);
      if (timeout.aborted) throw new ExploreCallError(`the local service did not answer ${what} in time`, 0);
      throw new ExploreCallError(`the local service could not be reached: ${err instanceof Error ? err.message : String(err)}`, 0);
    }
    const text = await res.text();
    let env: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      env = JSON.parse(text) as typeof env;
    } catch {
      throw new ExploreCallError(`the local service answered ${what} with HTTP ${res.status} and no JSON`, res.status);
    }
    if (!res.ok || env.code !== 0) throw new ExploreCallError(typeof env.msg === 'string' && env.msg !== '' ? env.msg : `HTTP ${res.status}`, res.status);
    if (!guard(env.data)) throw new ExploreCallError(`the local service answered ${what} in an unexpected shape`, res.status);
    return env.data;
  }
}

const enc = (id: string): string => encodeURIComponent(id);
