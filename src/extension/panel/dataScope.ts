/**
 * The data a session's next question uses: choosing it (VS Code's pickers: a dataset, or none for
 * a general question, then its files) and describing it for the panel's data selector by name.
 */
import type { TeamDataClient } from '../../api/index';
import type { DataSource, Dataset } from '../../shared/domain';
import type { DataScopeView } from '../../shared/protocol';
import { pickDataSources, pickDataset } from '../flows/pickers';
import type { Services } from '../services';

export interface JobScope {
  datasetId?: string;
  datasourceIdList?: string[];
}

/** How many datasets and files are searched for names; beyond that the ids are not described. */
const LOOKUP_LIMIT = 1000;

async function find<T>(it: AsyncIterable<T>, match: (x: T) => boolean): Promise<T | undefined> {
  let n = 0;
  for await (const x of it) {
    if (match(x)) return x;
    if (++n >= LOOKUP_LIMIT) break;
  }
  return undefined;
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= LOOKUP_LIMIT) break;
  }
  return out;
}

/** The selector's text for a scope: the dataset's name and its chosen files' names. */
export async function describeScope(client: TeamDataClient, scope: JobScope): Promise<DataScopeView> {
  const datasetId = scope.datasetId;
  if (!datasetId) return { files: [], allFiles: false };
  const dataset = await find(client.datasets.iterate({ pageSize: 100 }), (d: Dataset) => d.id === datasetId);
  // A deleted dataset: say so rather than offer a name that no longer answers.
  if (!dataset) return { files: [], allFiles: false };
  const sources = await all(client.dataSources.iterate(datasetId, { pageSize: 100 }));
  const ready = sources.filter((d: DataSource) => d.status === 'synched');
  const wanted = scope.datasourceIdList;
  const chosen = wanted ? sources.filter((d) => wanted.includes(d.id)) : ready;
  const allFiles = ready.length > 0 && ready.every((d) => chosen.includes(d));
  return { dataset: dataset.name || '(unnamed dataset)', files: chosen.map((d) => d.name || d.fileName), allFiles };
}

/**
 * Asks which data the next questions use: a dataset (or none, for a general question), then its
 * files, the current choice pre-selected. Undefined when the user cancelled.
 */
export async function chooseScope(s: Services, client: TeamDataClient, title: string, current: JobScope = {}): Promise<JobScope | undefined> {
  const choice = await pickDataset(s, client, { title, allowNone: true, allowCreate: false, ...(current.datasetId ? { preferredId: current.datasetId } : {}) });
  if (!choice) return undefined;
  if (choice.kind !== 'existing') return {};
  const sources = await pickDataSources(s, client, choice.dataset, choice.dataset.id === current.datasetId ? current.datasourceIdList : undefined);
  if (!sources) return undefined;
  return { datasetId: choice.dataset.id, datasourceIdList: sources.map((d) => d.id) };
}
