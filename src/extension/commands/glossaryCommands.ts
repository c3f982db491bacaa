/**
 * The dataset glossary in the Datasets tree: change what a word means, or forget it. Meanings are
 * added from answers (a refusal's "word" means `column` chips); the local service keeps them.
 */
import type { GlossaryEntry } from '../../shared/glossary';
import type { Services } from '../services';
import type { GlossaryEntryNode } from '../trees/nodes';

function entryOf(node: unknown): GlossaryEntryNode | undefined {
  return typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'glossaryEntry' ? (node as GlossaryEntryNode) : undefined;
}

const same = (a: GlossaryEntry, b: GlossaryEntry): boolean => a.phrase === b.phrase && a.table === b.table;

/** Changes the words or the column of one meaning (the value, if any, stays). */
export async function editGlossaryEntry(s: Services, node: unknown): Promise<boolean> {
  const n = entryOf(node);
  if (n === undefined) return false;
  const e = n.entry;
  const phrase = await s.prompts.input({
    title: 'Edit meaning (1/2)', prompt: 'The words, as you type them in questions', value: e.phrase,
    validate: (v) => (v.trim() === '' ? 'Type the words this meaning is for' : v.length > 200 ? 'At most 200 characters' : undefined),
  });
  if (phrase === undefined) return false;
  const column = await s.prompts.input({
    title: 'Edit meaning (2/2)', prompt: `The column "${phrase.trim()}" means${e.value !== undefined ? ` (its value "${e.value}")` : ''}`, value: e.column,
    validate: (v) => (v.trim() === '' ? 'Type a column name' : v.length > 200 ? 'At most 200 characters' : undefined),
  });
  if (column === undefined) return false;
  const client = await s.connection.client();
  const now = await client.datasets.glossary(n.datasetId);
  const changed: GlossaryEntry = { ...e, phrase: phrase.trim(), column: column.trim() };
  await client.datasets.setGlossary(n.datasetId, [...now.filter((x) => !same(x, e)), changed]);
  s.log.info(`Changed the meaning of "${e.phrase}" in dataset ${n.datasetId}`);
  await s.datasets.refreshDataset(n.datasetId);
  return true;
}

/** Forgets one meaning: later questions treat the words as unknown again. */
export async function removeGlossaryEntry(s: Services, node: unknown): Promise<boolean> {
  const n = entryOf(node);
  if (n === undefined) return false;
  const ok = await s.prompts.confirm(`Forget what “${n.entry.phrase}” means?`, {
    detail: 'Later questions about this dataset will ask what the words mean again.',
    confirmLabel: 'Forget',
  });
  if (!ok) return false;
  const client = await s.connection.client();
  const now = await client.datasets.glossary(n.datasetId);
  await client.datasets.setGlossary(n.datasetId, now.filter((x) => !same(x, n.entry)));
  s.log.info(`Forgot the meaning of "${n.entry.phrase}" in dataset ${n.datasetId}`);
  await s.datasets.refreshDataset(n.datasetId);
  return true;
}
