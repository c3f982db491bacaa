/**
 * The Datasets and Sessions views' actions. Each takes the node it was invoked on (from
 * `view/item/context`); deletes always confirm through the prompt seam.
 */
import type { Answer, Dataset, Session } from '../../shared/domain';
import { addToDataset } from '../flows/analyze';
import { askFlow, type AskResult } from '../flows/ask';
import { createSession } from '../flows/sessionHelpers';
import { lastChoice } from '../flows/pickers';
import { chooseScope } from '../panel/dataScope';
import type { Services } from '../services';
import type { DataSourceNode, DatasetNode, JobNode, MoreNode, SessionNode } from '../trees/nodes';

function isNode<K extends string>(arg: unknown, kind: K): arg is { kind: K } {
  return typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === kind;
}

function nameOk(v: string): string | undefined {
  if (v.trim() === '') return 'Enter a name';
  return v.length > 128 ? 'At most 128 characters' : undefined;
}

export async function newDataset(s: Services): Promise<Dataset | undefined> {
  const name = await s.prompts.input({ title: 'New dataset (1/2)', prompt: 'Name', validate: nameOk });
  if (name === undefined) return undefined;
  const description = await s.prompts.input({ title: 'New dataset (2/2)', prompt: 'Description (optional)', value: '' });
  if (description === undefined) return undefined;
  const client = await s.connection.client();
  const { id } = await client.datasets.create({ name: name.trim(), description: description.trim() });
  s.datasets.refresh();
  return { id, name: name.trim(), description: description.trim() };
}

export async function editDataset(s: Services, node: unknown): Promise<void> {
  if (!isNode(node, 'dataset')) return;
  const d = (node as DatasetNode).dataset;
  const name = await s.prompts.input({ title: `Edit “${d.name}” (1/2)`, prompt: 'Name', value: d.name, validate: nameOk });
  if (name === undefined) return;
  const description = await s.prompts.input({ title: `Edit “${d.name}” (2/2)`, prompt: 'Description', value: d.description });
  if (description === undefined) return;
  const client = await s.connection.client();
  await client.datasets.modify(d.id, { name: name.trim(), description: description.trim() });
  s.datasets.refresh();
}

export async function deleteDataset(s: Services, node: unknown): Promise<boolean> {
  if (!isNode(node, 'dataset')) return false;
  const d = (node as DatasetNode).dataset;
  const client = await s.connection.client();
  const count = await client.dataSources.list(d.id, { pageSize: 1 }).then((p) => p.total, () => undefined);
  const ok = await s.prompts.confirm(`Delete the dataset “${d.name}”?`, {
    detail: `${count === undefined ? 'Its files' : `Its ${count} file${count === 1 ? '' : 's'}`} and their processed data are deleted from the service. This cannot be undone.`,
    confirmLabel: 'Delete',
  });
  if (!ok) return false;
  await client.datasets.delete(d.id);
  s.log.info(`Deleted dataset ${d.id}`);
  s.datasets.forgetDataset(d.id);
  s.datasets.refresh();
  return true;
}

export async function addFilesToNode(s: Services, node: unknown): Promise<unknown> {
  const dataset = isNode(node, 'dataset') ? (node as DatasetNode).dataset : undefined;
  return addToDataset(s, undefined, undefined, dataset);
}

export async function deleteDataSource(s: Services, node: unknown): Promise<boolean> {
  if (!isNode(node, 'dataSource')) return false;
  const ds = (node as DataSourceNode).dataSource;
  const ok = await s.prompts.confirm(`Delete the data source “${ds.name || ds.fileName}”?`, {
    detail: 'The file and its processed data are deleted from the service. Sessions that used it keep their answers.',
    confirmLabel: 'Delete',
  });
  if (!ok) return false;
  const client = await s.connection.client();
  await client.dataSources.delete(ds.datasetId, ds.id);
  await s.reuse.forgetDataSource(ds.id);
  s.log.info(`Deleted data source ${ds.id}`);
  await s.datasets.refreshDataset(ds.datasetId);
  return true;
}

export function askAboutDataset(s: Services, node: unknown): Promise<AskResult | undefined> {
  if (!isNode(node, 'dataset')) return askFlow(s);
  return askFlow(s, { dataset: (node as DatasetNode).dataset });
}

export async function askAboutDataSource(s: Services, node: unknown): Promise<AskResult | undefined> {
  if (!isNode(node, 'dataSource')) return askFlow(s);
  const ds = (node as DataSourceNode).dataSource;
  if (ds.status !== 'synched') {
    s.notifier.info(`“${ds.name || ds.fileName}” is not ready yet: ask once the Datasets view shows it ready.`);
    return undefined;
  }
  const parent = s.datasets.getParent(node as DataSourceNode);
  const dataset: Dataset = parent?.kind === 'dataset' ? parent.dataset : { id: ds.datasetId, name: ds.datasetId, description: '' };
  return askFlow(s, { dataset, dataSources: [ds] });
}

export async function newSession(s: Services): Promise<string | undefined> {
  const title = await s.prompts.input({ title: 'New session', prompt: 'Title (optional; the first question names it otherwise)', value: '' });
  if (title === undefined) return undefined;
  const client = await s.connection.client();
  // A session is for asking about data: which data comes with it, changeable in its panel.
  const last = lastChoice(s);
  const scope = await chooseScope(s, client, 'New session: ask about which data?', { ...(last.datasetId ? { datasetId: last.datasetId } : {}), ...(last.dataSourceIds ? { datasourceIdList: last.dataSourceIds } : {}) });
  if (scope === undefined) return undefined;
  const id = await createSession(s, client, title.trim());
  s.sessions.refresh();
  const panel = await s.panels.open(id);
  panel.setScope(scope);
  panel.post({ type: 'focusInput' });
  return id;
}

export async function renameSession(s: Services, node: unknown): Promise<void> {
  if (!isNode(node, 'session')) return;
  const x: Session = (node as SessionNode).session;
  const title = await s.prompts.input({ title: 'Rename session', prompt: 'New title', value: x.title, validate: nameOk });
  if (title === undefined) return;
  const client = await s.connection.client();
  await client.sessions.modify(x.id, { title: title.trim() });
  s.panels.get(x.id)?.setTitle(title.trim());
  // The node first (commands may still hold it), then the list, whose records carry the old title.
  await s.sessions.refreshSession(x.id);
  s.sessions.refresh();
}

export async function deleteSession(s: Services, node: unknown): Promise<boolean> {
  if (!isNode(node, 'session')) return false;
  const x: Session = (node as SessionNode).session;
  const ok = await s.prompts.confirm(`Delete the session “${x.title || 'Untitled session'}”?`, {
    detail: 'Its questions and answers are deleted from the service. This cannot be undone.',
    confirmLabel: 'Delete',
  });
  if (!ok) return false;
  const client = await s.connection.client();
  await client.sessions.delete(x.id);
  s.log.info(`Deleted session ${x.id}`);
  s.panels.closeSession(x.id);
  s.sessions.forgetSession(x.id);
  s.sessions.refresh();
  return true;
}

export function askInSession(s: Services, node: unknown): Promise<AskResult | undefined> {
  if (!isNode(node, 'session')) return askFlow(s);
  return askFlow(s, { sessionId: (node as SessionNode).session.id });
}

export async function openJob(s: Services, node: unknown): Promise<void> {
  if (!isNode(node, 'job')) return;
  const job = node as JobNode;
  await s.panels.open(job.sessionId, { scrollToJobId: job.jobId });
}

/** Retry on a cancelled or failed past job: its panel opens at the turn and asks it again there. */
export async function retryJob(s: Services, node: unknown): Promise<Answer | undefined> {
  if (!isNode(node, 'job')) return undefined;
  const job = node as JobNode;
  const panel = await s.panels.open(job.sessionId, { scrollToJobId: job.jobId });
  await panel.historyLoaded;
  return panel.retryJob(job.jobId);
}

export async function loadMore(s: Services, node: unknown): Promise<void> {
  if (!isNode(node, 'more')) return;
  const more = node as MoreNode;
  if (more.id.startsWith('more:datasets:')) await s.datasets.loadMore(more);
  else await s.sessions.loadMore(more);
}

export async function filterView(s: Services, which: 'datasets' | 'sessions'): Promise<void> {
  const tree = which === 'datasets' ? s.datasets : s.sessions;
  const keyword = await s.prompts.input({
    title: which === 'datasets' ? 'Filter datasets' : 'Filter sessions',
    prompt: which === 'datasets' ? 'Show datasets whose name or description contains…' : 'Show sessions whose title contains…',
    value: tree.keyword,
  });
  if (keyword !== undefined) tree.setKeyword(keyword);
}
