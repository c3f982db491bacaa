/**
 * One level of a tree backed by a {@link PagedList}: the first page on expand, "Load more…" while
 * the service has more, an inline notice when the level is empty, and an error node (click to
 * retry) when the first page cannot be loaded. Both trees build every level this way. Free of
 * `vscode`, so the paging rules are tested in plain Node.
 */
import { nodeId, type MessageNode, type MoreNode } from './nodes';
import type { PagedList } from './pagedList';

export interface PagedLevel<T, N> {
  list: PagedList<T>;
  /** Tree name used in node ids ("datasets", "sessions"). */
  tree: string;
  /** The node whose children this is; undefined for the root. */
  parentId?: string;
  toNode(item: T): N;
  /** A notice for an empty level (e.g. "No files yet"), with its click action. */
  empty?: Pick<MessageNode, 'text' | 'command'>;
  /** What a failed first load shows instead of the items. */
  failed(err: unknown): Array<N | MessageNode>;
}

export async function pagedNodes<T, N>(level: PagedLevel<T, N>): Promise<Array<N | MoreNode | MessageNode>> {
  const { list, tree, parentId } = level;
  if (!list.loaded || list.error) {
    try {
      await list.loadFirst();
    } catch (err) {
      return level.failed(err);
    }
  }
  const nodes: Array<N | MoreNode | MessageNode> = list.items.map((item) => level.toNode(item));
  const parent = parentId === undefined ? {} : { parentId };
  if (list.hasMore) nodes.push({ kind: 'more', id: nodeId.more(parentId, tree), ...parent, remaining: list.total - list.items.length });
  if (nodes.length === 0 && level.empty) {
    nodes.push({ kind: 'message', id: nodeId.message(parentId, tree), ...parent, severity: 'info', ...level.empty });
  }
  return nodes;
}

/**
 * The empty-level notice of a root filtered by keyword ("No dataset matches "q"", click to clear
 * the filter), spread into a {@link PagedLevel}; nothing when there is no filter, so an empty
 * unfiltered root stays empty and VS Code shows the view's welcome content.
 */
export function noMatchNotice(noun: string, keyword: string | undefined, clearCommand: string): { empty?: NonNullable<PagedLevel<unknown, unknown>['empty']> } {
  return keyword ? { empty: { text: `No ${noun} matches "${keyword}"`, command: { id: clearCommand, title: 'Clear Filter' } } } : {};
}

/** The error node of a level that failed to load: the reason (already logged), and a click that retries. */
export function failureNode(tree: string, parentId: string | undefined, report: { message: string }, retryCommand: string): MessageNode {
  return {
    kind: 'message',
    id: nodeId.message(parentId, tree),
    ...(parentId ? { parentId } : {}),
    text: `${report.message.replace(/ See the log.*$/, '')} Click to retry.`,
    tooltip: report.message,
    severity: 'error',
    command: { id: retryCommand, title: 'Retry' },
  };
}

/** The list stored under `key`, created on first use. */
export function listFor<T>(lists: Map<string, PagedList<T>>, key: string, create: () => PagedList<T>): PagedList<T> {
  let list = lists.get(key);
  if (!list) {
    list = create();
    lists.set(key, list);
  }
  return list;
}
