/**
 * Node types of the two trees. Nodes are plain data with stable ids, so `getParent`, `reveal`
 * and refreshes address the same element across reloads.
 */
import type { DataSource, Dataset, HistoryRecord, Session } from '../../shared/domain';
import type { GlossaryEntry } from '../../shared/glossary';
import { plainQuestion } from '../../shared/plainQuestion';

export interface DatasetNode {
  kind: 'dataset';
  id: string;
  dataset: Dataset;
}

export interface DataSourceNode {
  kind: 'dataSource';
  id: string;
  dataSource: DataSource;
  parentId: string;
}

/** The words a dataset's users gave a meaning (local service only), under the dataset. */
export interface GlossaryNode {
  kind: 'glossary';
  id: string;
  parentId: string;
  datasetId: string;
  entries: GlossaryEntry[];
}

export interface GlossaryEntryNode {
  kind: 'glossaryEntry';
  id: string;
  parentId: string;
  datasetId: string;
  entry: GlossaryEntry;
}

export interface SessionNode {
  kind: 'session';
  id: string;
  session: Session;
}

export interface JobNode {
  kind: 'job';
  id: string;
  sessionId: string;
  jobId: string;
  question: string;
  record: HistoryRecord;
  parentId: string;
}

/** "Load more…": `parentId` is the node whose children continue, undefined for the root. */
export interface MoreNode {
  kind: 'more';
  id: string;
  parentId?: string;
  remaining: number;
}

/** An inline notice (a load error, an empty dataset) that keeps the tree honest. */
export interface MessageNode {
  kind: 'message';
  id: string;
  parentId?: string;
  text: string;
  tooltip?: string;
  /** `progress`: something is still starting (a spinning icon). */
  severity: 'info' | 'error' | 'progress';
  /** A command to run on click (e.g. retry). */
  command?: { id: string; title: string; args?: unknown[] };
}

export type DatasetsTreeNode = DatasetNode | DataSourceNode | GlossaryNode | GlossaryEntryNode | MoreNode | MessageNode;
export type SessionsTreeNode = SessionNode | JobNode | MoreNode | MessageNode;

export const nodeId = {
  dataset: (id: string) => `dataset:${id}`,
  dataSource: (datasetId: string, id: string) => `dataSource:${datasetId}:${id}`,
  glossary: (datasetId: string) => `glossary:${datasetId}`,
  glossaryEntry: (datasetId: string, e: GlossaryEntry) => `glossaryEntry:${datasetId}:${e.table ?? ''}:${e.phrase}`,
  session: (id: string) => `session:${id}`,
  job: (sessionId: string, jobId: string) => `job:${sessionId}:${jobId}`,
  more: (parentId: string | undefined, tree: string) => `more:${tree}:${parentId ?? 'root'}`,
  message: (parentId: string | undefined, tree: string) => `message:${tree}:${parentId ?? 'root'}`,
};

/** The question text of a history record (its first text block), never "undefined". */
export function questionOf(record: HistoryRecord): string {
  for (const b of record.question.blocks) {
    if (typeof b.content === 'string' && b.content.trim() !== '') return b.content.trim();
  }
  return '(question without text)';
}

/** A one-line label: first line, bounded length. */
export function oneLine(text: string, max = 80): string {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/** How a past job ended, in the words the tree says it. */
export function jobStateWord(state: HistoryRecord['answer']['state']): 'done' | 'cancelled' | 'failed' {
  return state === 'cancelled' ? 'cancelled' : state === 'error' ? 'failed' : 'done';
}

/**
 * A past job's screen-reader name: the question as it reads (no backticks or quotes of the engine's
 * sentence, which a screen reader spells out) and how it ended. Without it VS Code reads the
 * tooltip, the raw sentence with its markup.
 */
export function jobAccessibleName(question: string, state: HistoryRecord['answer']['state']): string {
  return `${plainQuestion(question) || '(question without text)'}, ${jobStateWord(state)}`;
}
