/**
 * Datasets: create, modify, list/iterate, delete, processing status and overview.
 */
import type { ListQuery } from '../shared/codec';
import type { Dataset, DatasetOverview, DatasetStatus, Page } from '../shared/domain';
import { readGlossary, type GlossaryEntry } from '../shared/glossary';
import { isObject } from '../shared/json';
import { TeamDataError } from './errors';
import type { UserCallOptions } from './options';
import { withCaller } from './caller';
import { checkListQuery, iteratePages, requireId } from './paging';
import type { Transport } from './transport';

export interface DatasetFields {
  name: string;
  description: string;
}

function checkFields(d: DatasetFields): void {
  if (typeof d?.name !== 'string' || d.name.trim() === '') {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'a dataset needs a non-empty name' });
  }
  if (typeof d.description !== 'string') {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'a dataset description must be a string (may be empty)' });
  }
}

export class DatasetsApi {
  constructor(private readonly t: Transport) {}

  /** Creates a dataset and returns its id. */
  async create(d: DatasetFields, opts?: UserCallOptions): Promise<{ id: string }> {
    checkFields(d);
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'POST', path: c.paths.datasets, json: c.encodeDatasetBody(d) }, false);
    return this.t.call(spec, opts, (x) => c.decodeCreated(x));
  }

  /** Renames a dataset or changes its description. */
  async modify(id: string, d: DatasetFields, opts?: UserCallOptions): Promise<void> {
    checkFields(d);
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'POST', path: c.paths.dataset(requireId(id, 'datasetId')), json: c.encodeDatasetBody(d) }, true);
    await this.t.call(spec, opts, () => undefined);
  }

  /** One page of datasets; `keyword` matches name or description. */
  async list(q: ListQuery = {}, opts?: UserCallOptions): Promise<Page<Dataset>> {
    checkListQuery(q);
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'GET', path: c.paths.datasets, query: c.listQuery('datasets', q) }, false);
    return this.t.call(spec, opts, (x) => c.decodePage(x, (r) => c.decodeDataset(r)));
  }

  /** Every dataset matching `q`, fetching pages as the loop advances. */
  iterate(q: ListQuery = {}, opts?: UserCallOptions): AsyncIterable<Dataset> {
    return iteratePages((page) => this.list(page, opts), q);
  }

  /** Deletes a dataset with its data sources. */
  async delete(id: string, opts?: UserCallOptions): Promise<void> {
    const c = this.t.codec;
    await this.t.call(withCaller(this.t, opts, { method: 'DELETE', path: c.paths.dataset(requireId(id, 'datasetId')) }, true), opts, () => undefined);
  }

  /** How many of the dataset's sources are synched, synching, invalid. */
  async status(id: string, opts?: UserCallOptions): Promise<DatasetStatus> {
    const c = this.t.codec;
    const datasetId = requireId(id, 'datasetId');
    const spec = withCaller(this.t, opts, { method: 'GET', path: c.paths.datasetStatus(datasetId) }, false);
    return this.t.call(spec, opts, (x) => c.decodeDatasetStatus(x, datasetId));
  }

  /**
   * The dataset's glossary: words its users gave a meaning. Local service only (the hosted service
   * answers NOT_FOUND); entries of the wrong shape are dropped.
   */
  async glossary(id: string, opts?: UserCallOptions): Promise<GlossaryEntry[]> {
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'GET', path: `${c.paths.dataset(requireId(id, 'datasetId'))}/glossary` }, false);
    return this.t.call(spec, opts, (x) => readGlossary(isObject(x) ? x['entries'] : undefined));
  }

  /** Replaces the dataset's glossary (local service only); returns it as stored. */
  async setGlossary(id: string, entries: readonly GlossaryEntry[], opts?: UserCallOptions): Promise<GlossaryEntry[]> {
    const c = this.t.codec;
    const json = { entries: entries.map((g) => ({ phrase: g.phrase, column: g.column, ...(g.table !== undefined ? { table: g.table } : {}), ...(g.value !== undefined ? { value: g.value } : {}) })) };
    const spec = withCaller(this.t, opts, { method: 'POST', path: `${c.paths.dataset(requireId(id, 'datasetId'))}/glossary`, json }, false);
    return this.t.call(spec, opts, (x) => readGlossary(isObject(x) ? x['entries'] : undefined));
  }

  /** The dataset with its source count, stored bytes and statuses. */
  async overview(id: string, opts?: UserCallOptions): Promise<DatasetOverview> {
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'GET', path: c.paths.datasetOverview(requireId(id, 'datasetId')) }, false);
    return this.t.call(spec, opts, (x) => c.decodeDatasetOverview(x));
  }
}
