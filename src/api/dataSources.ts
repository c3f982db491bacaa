/**
 * Data sources of a dataset: create from a URL or an uploaded file key, list/iterate by status,
 * get, delete, presign, and wait until processing finishes.
 */
import type { ListQuery } from '../shared/codec';
import { DATA_SOURCE_STATUSES, type DataSource, type NewDataSource, type Page } from '../shared/domain';
import { TeamDataError } from './errors';
import type { CallOptions, UserCallOptions } from './options';
import { withCaller } from './caller';
import { checkListQuery, iteratePages, requireId, userIdOf } from './paging';
import { sleep } from './retry';
import type { Transport } from './transport';

export interface WaitOptions extends CallOptions {
  /** First delay between polls (default 2000 ms, the official client's); grows 1.5x per poll. */
  intervalMs?: number;
  /** Longest delay between polls (default 10 000 ms, or `intervalMs` if larger). */
  maxIntervalMs?: number;
  /** Give up after this long with code `TIMEOUT` (default: wait as long as the source is not final). */
  timeoutMs?: number;
  /** Called with every polled state, including the final one. */
  onStatus?: (ds: DataSource) => void;
}

function checkNew(d: NewDataSource): void {
  if (typeof d?.fileName !== 'string' || d.fileName.trim() === '') {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'a data source needs a fileName (preferably with its extension)' });
  }
  const given = [d.url, d.fileKey, d.path].filter((v) => typeof v === 'string' && v !== '').length;
  if (given !== 1) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'a data source needs exactly one of url, fileKey and path (path: local service only)' });
  }
}

function checkStatuses(q: ListQuery): void {
  for (const s of q.statuses ?? []) {
    if (!(DATA_SOURCE_STATUSES as readonly string[]).includes(s)) {
      throw new TeamDataError('INVALID_ARGUMENT', { message: `unknown data source status "${s}": use ${DATA_SOURCE_STATUSES.join(', ')}` });
    }
  }
}

export class DataSourcesApi {
  constructor(private readonly t: Transport) {}

  /**
   * Adds a data source to a dataset. Exactly one of `url` and `fileKey` (from `files.upload`).
   * Needs a user id (client option or `opts.userId`), which the contract requires here.
   */
  async create(datasetId: string, d: NewDataSource, opts?: UserCallOptions): Promise<DataSource> {
    checkNew(d);
    const userId = userIdOf(this.t, opts);
    if (userId === undefined) {
      throw new TeamDataError('INVALID_ARGUMENT', { message: 'creating a data source needs a userId (client option or call option)' });
    }
    const c = this.t.codec;
    const path = c.paths.datasources(requireId(datasetId, 'datasetId'));
    const spec = withCaller(this.t, { ...opts, userId }, { method: 'POST', path, json: c.encodeDataSourceBody(d, userId) }, true);
    return this.t.call(spec, opts, (x) => c.decodeDataSource(x));
  }

  /** Adds a data source to a dataset the service creates for it (see the result's `datasetId`). */
  async createWithoutDataset(d: NewDataSource, opts?: UserCallOptions): Promise<DataSource> {
    checkNew(d);
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'POST', path: c.paths.datasourcesWithoutDataset, json: c.encodeDataSourceBody(d, userIdOf(this.t, opts)) }, true);
    return this.t.call(spec, opts, (x) => c.decodeDataSource(x));
  }

  /** One page of a dataset's sources; `statuses` keeps sources in any of those states. */
  async list(datasetId: string, q: ListQuery = {}, opts?: UserCallOptions): Promise<Page<DataSource>> {
    checkListQuery(q);
    checkStatuses(q);
    const c = this.t.codec;
    const path = c.paths.datasources(requireId(datasetId, 'datasetId'));
    const spec = withCaller(this.t, opts, { method: 'GET', path, query: c.listQuery('datasources', q) }, false);
    return this.t.call(spec, opts, (x) => c.decodePage(x, (r) => c.decodeDataSource(r)));
  }

  /** Every source of the dataset matching `q`. */
  iterate(datasetId: string, q: ListQuery = {}, opts?: UserCallOptions): AsyncIterable<DataSource> {
    return iteratePages((page) => this.list(datasetId, page, opts), q);
  }

  /** One data source, with its current status (and `error` when processing failed). */
  async get(datasetId: string, id: string, opts?: UserCallOptions): Promise<DataSource> {
    const c = this.t.codec;
    const path = c.paths.datasource(requireId(datasetId, 'datasetId'), requireId(id, 'datasourceId'));
    return this.t.call(withCaller(this.t, opts, { method: 'GET', path }, false), opts, (x) => c.decodeDataSource(x));
  }

  /** Removes a data source from its dataset. */
  async delete(datasetId: string, id: string, opts?: UserCallOptions): Promise<void> {
    const c = this.t.codec;
    const path = c.paths.datasource(requireId(datasetId, 'datasetId'), requireId(id, 'datasourceId'));
    await this.t.call(withCaller(this.t, opts, { method: 'DELETE', path }, true), opts, () => undefined);
  }

  /** A temporary download URL of the source's file. */
  async presign(datasetId: string, id: string, opts?: UserCallOptions): Promise<{ url: string; expiredAt?: string }> {
    const c = this.t.codec;
    const path = c.paths.presign(requireId(datasetId, 'datasetId'), requireId(id, 'datasourceId'));
    return this.t.call(withCaller(this.t, opts, { method: 'POST', path, json: {} }, false), opts, (x) => c.decodePresign(x));
  }

  /**
   * Polls until the source is `synched` and returns it. Rejects with `DATASOURCE_INVALID` (message
   * and `serviceMessage` = the reason) when it ends `invalid` with an `error`, or goes from
   * `synching` back to `invalid`; an `invalid` source without either is still awaiting processing.
   */
  async waitUntilSynched(datasetId: string, id: string, o: WaitOptions = {}): Promise<DataSource> {
    requireId(datasetId, 'datasetId');
    requireId(id, 'datasourceId');
    const started = Date.now();
    let interval = Math.max(1, o.intervalMs ?? 2000);
    const maxInterval = Math.max(interval, o.maxIntervalMs ?? 10_000);
    const callOpts: CallOptions = {};
    if (o.signal) callOpts.signal = o.signal;
    if (o.traceId !== undefined) callOpts.traceId = o.traceId;
    let wasSynching = false;
    for (;;) {
      const ds = await this.get(datasetId, id, callOpts);
      o.onStatus?.(ds);
      if (ds.status === 'synched') return ds;
      if (ds.status === 'invalid' && (ds.error !== undefined || wasSynching)) {
        const reason = ds.error ?? 'processing failed';
        throw new TeamDataError('DATASOURCE_INVALID', {
          message: `${ds.name || ds.fileName || id} could not be processed: ${reason}`,
          serviceMessage: reason,
          operation: `GET ${this.t.codec.paths.datasource(datasetId, id)}`,
        });
      }
      wasSynching ||= ds.status === 'synching';
      const elapsed = Date.now() - started;
      if (o.timeoutMs !== undefined && elapsed >= o.timeoutMs) {
        throw new TeamDataError('TIMEOUT', { message: `${ds.name || ds.fileName || id} is still ${ds.status} after ${elapsed} ms` });
      }
      const wait = o.timeoutMs === undefined ? interval : Math.min(interval, o.timeoutMs - elapsed);
      try {
        await sleep(wait, o.signal);
      } catch {
        throw this.t.aborted(`waiting for data source ${id}`);
      }
      interval = Math.min(maxInterval, Math.round(interval * 1.5));
    }
  }
}
