/**
 * Quick picks for datasets, sessions and data sources, and the memory of the last choice (per
 * workspace and per service, so a hosted and the local service never mix ids).
 */
import type { TeamDataClient } from '../../api/index';
import type { DataSource, Dataset, Session } from '../../shared/domain';
import { sessionSettingsLabel } from '../../shared/sessionLabels';
import type { Services } from '../services';
import type { PickItem } from '../ui/prompts';

/** How many records a quick pick lists before saying "use the tree's filter". */
const PICK_LIMIT = 200;

export interface LastChoice {
  sessionId?: string;
  datasetId?: string;
  dataSourceIds?: string[];
}

const LAST_KEY = 'teamData.lastAsk';

export function lastChoice(s: Services): LastChoice {
  const all = s.context.workspaceState.get<Record<string, LastChoice>>(LAST_KEY) ?? {};
  return all[s.connection.identity()] ?? {};
}

export async function rememberChoice(s: Services, choice: LastChoice): Promise<void> {
  const all = s.context.workspaceState.get<Record<string, LastChoice>>(LAST_KEY) ?? {};
  all[s.connection.identity()] = choice;
  await s.context.workspaceState.update(LAST_KEY, all);
}

async function take<T>(it: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= max) break;
  }
  return out;
}

export type DatasetChoice = { kind: 'existing'; dataset: Dataset } | { kind: 'new'; name: string } | { kind: 'none' };

/** How the offered dataset is described once it exists, from why its name was offered. */
function existingDefaultNote(reason: string | undefined): string {
  if (reason === undefined || /workspace/.test(reason)) return 'this workspace';
  return /sample/.test(reason) ? 'the sample data' : 'same name as the file’s folder';
}

/**
 * Picks a dataset. `defaultName` (the workspace folder) is offered first: the existing dataset of
 * that name, or "New dataset <name>" described by `defaultReason`. Returns undefined when the user cancelled.
 */
export async function pickDataset(
  s: Services,
  client: TeamDataClient,
  opts: { title: string; defaultName?: string; defaultReason?: string; allowNone?: boolean; allowCreate?: boolean; preferredId?: string },
): Promise<DatasetChoice | undefined> {
  const datasets = await take(client.datasets.iterate({ pageSize: 100 }), PICK_LIMIT);
  const items: Array<PickItem<DatasetChoice | 'ask'>> = [];
  const byDefault = opts.defaultName ? datasets.find((d) => d.name === opts.defaultName) : undefined;
  if (opts.allowNone) items.push({ label: '$(circle-slash) No dataset', description: 'a general question', value: { kind: 'none' } });
  const allowCreate = opts.allowCreate ?? true;
  if (allowCreate && opts.defaultName && !byDefault) {
    items.push({ label: `$(add) New dataset “${opts.defaultName}”`, description: opts.defaultReason ?? 'named after the workspace folder', value: { kind: 'new', name: opts.defaultName } });
  }
  const ordered = [...datasets].sort((a, b) => rank(b) - rank(a));
  function rank(d: Dataset): number {
    return d.id === opts.preferredId ? 2 : d === byDefault ? 1 : 0;
  }
  for (const d of ordered) {
    items.push({ label: `$(database) ${d.name || '(unnamed dataset)'}`, description: d.id === opts.preferredId ? 'last used' : d === byDefault ? existingDefaultNote(opts.defaultReason) : d.description, value: { kind: 'existing', dataset: d } });
  }
  if (allowCreate) items.push({ label: '$(add) New dataset…', description: 'choose a name', value: 'ask' });
  const activeIndex = opts.allowNone && (opts.preferredId || byDefault || opts.defaultName) ? 1 : 0;
  const chosen = await s.prompts.pick(items, { title: opts.title, placeHolder: 'Choose a dataset', activeIndex });
  if (chosen !== 'ask') return chosen;
  const name = await s.prompts.input({
    title: 'New dataset',
    prompt: 'Name of the new dataset',
    value: opts.defaultName ?? '',
    validate: (v) => (v.trim() === '' ? 'Enter a name' : v.length > 128 ? 'At most 128 characters' : undefined),
  });
  return name === undefined ? undefined : { kind: 'new', name: name.trim() };
}

/** Creates the dataset of a `new` choice; returns the dataset either way. */
export async function resolveDataset(s: Services, client: TeamDataClient, choice: Exclude<DatasetChoice, { kind: 'none' }>, description: string): Promise<Dataset> {
  if (choice.kind === 'existing') return choice.dataset;
  const { id } = await client.datasets.create({ name: choice.name, description });
  s.log.info(`Created dataset "${choice.name}" (${id})`);
  s.datasets.refresh();
  return { id, name: choice.name, description };
}

export type SessionChoice = { kind: 'existing'; session: Session } | { kind: 'new' };

export async function pickSession(s: Services, client: TeamDataClient, opts: { title: string; preferredId?: string }): Promise<SessionChoice | undefined> {
  const sessions = await take(client.sessions.iterate({ pageSize: 100 }), PICK_LIMIT);
  const items: Array<PickItem<SessionChoice>> = [{ label: '$(add) New session', value: { kind: 'new' } }];
  const preferred = sessions.find((x) => x.id === opts.preferredId);
  for (const x of preferred ? [preferred, ...sessions.filter((y) => y !== preferred)] : sessions) {
    items.push({
      label: `$(comment-discussion) ${x.title.trim() || 'Untitled session'}`,
      description: [x === preferred ? 'last used' : '', sessionSettingsLabel(x.languageType, x.jobMode)].filter(Boolean).join(' · '),
      value: { kind: 'existing', session: x },
    });
  }
  return s.prompts.pick(items, { title: opts.title, placeHolder: 'Ask in which session?', activeIndex: preferred ? 1 : 0 });
}

/**
 * Picks the data sources a question uses: the dataset's synched sources, all pre-selected unless
 * the last choice for this dataset says otherwise. Returns undefined when cancelled.
 */
export async function pickDataSources(s: Services, client: TeamDataClient, dataset: Dataset, remembered?: string[]): Promise<DataSource[] | undefined> {
  const all = await take(client.dataSources.iterate(dataset.id, { pageSize: 100 }), 1000);
  const ready = all.filter((d) => d.status === 'synched');
  if (ready.length === 0) {
    const pending = all.length - ready.length;
    throw new Error(
      pending > 0
        ? `no file of "${dataset.name}" is ready yet (${pending} still processing or failed); wait until the Datasets view shows them ready`
        : `the dataset "${dataset.name}" has no files yet; add files to it first`,
    );
  }
  if (ready.length === 1) return ready;
  const keep = new Set(remembered?.filter((id) => ready.some((d) => d.id === id)) ?? []);
  const items = ready.map((d) => ({ label: d.name || d.fileName, description: d.fileName !== d.name ? d.fileName : undefined, picked: keep.size === 0 || keep.has(d.id), value: d }));
  const chosen = await s.prompts.pickMany(items, { title: `Files of “${dataset.name}” to use`, placeHolder: 'The answer draws on the selected files' });
  if (chosen === undefined) return undefined;
  if (chosen.length === 0) throw new Error('no file was selected; select at least one file');
  return chosen;
}
