/**
 * What each explorer tab keeps across closing and reopening it (issue 27): the query (sort and
 * filters), pinned columns, column widths, the sheet shown, and the rows pinned at the top — by
 * index, with the query they are indices under (the webview drops them when its query changes;
 * their values are fetched again on reopening, never kept) — per file (or answer table, or data
 * source), in the workspace's state. Checked with the protocol's guards when read back: state
 * written by another version must not reach the webview unchecked. Bounded, oldest first out.
 */
import { putRecent, type StateStore } from '../recentState';
import type { ExploreQuery } from '../../shared/explore';
import { isExploreQuery, isPinnedRowIndices } from '../../shared/explorerGuards';
import { arrayOf, int, isPlainObject, recordOf, str } from '../../shared/guardKit';

export interface PinnedRowsSaved {
  /** The query the indices are under. */
  query: ExploreQuery;
  /** Row indices in the view under `query`, in the order they were pinned. */
  rows: number[];
}

export interface ExplorerSaved {
  query: ExploreQuery;
  pinned: string[];
  widths: Record<string, number>;
  sheet?: string;
  pinnedRows?: PinnedRowsSaved;
}

/** The workspace-state key (exported for the tests). */
export const EXPLORER_STATE_KEY = 'teamData.explorerState';
export const MAX_ENTRIES = 200;
const isPinned = arrayOf(str(1000), 20_000);
const isWidths = recordOf(int(16, 4000), 20_000, 1000);
const isSheet = str(1000);


function pinnedRowsOf(v: unknown): PinnedRowsSaved | undefined {
  if (!isPlainObject(v) || !isExploreQuery(v['query']) || !isPinnedRowIndices(v['rows'])) return undefined;
  return { query: v['query'], rows: [...new Set(v['rows'])] };
}

export class ExplorerMemory {
  constructor(private readonly state: StateStore) {}

  get(key: string): ExplorerSaved | undefined {
    const v = this.state.get<Record<string, unknown>>(EXPLORER_STATE_KEY)?.[key];
    if (!isPlainObject(v) || !isExploreQuery(v['query']) || !isPinned(v['pinned']) || !isWidths(v['widths'])) return undefined;
    const sheet = isSheet(v['sheet']) ? v['sheet'] : undefined;
    // Damaged pinned rows are dropped alone: the rest of the tab's state still applies.
    const pinnedRows = pinnedRowsOf(v['pinnedRows']);
    return { query: v['query'], pinned: v['pinned'], widths: v['widths'], ...(sheet !== undefined ? { sheet } : {}), ...(pinnedRows ? { pinnedRows } : {}) };
  }

  async set(key: string, saved: ExplorerSaved): Promise<void> {
    const { pinnedRows, ...rest } = saved;
    // No pinned rows, nothing kept for them: an empty list would only take room.
    const entry = pinnedRows && pinnedRows.rows.length > 0 ? { ...rest, pinnedRows } : rest;
    await putRecent<unknown>(this.state, EXPLORER_STATE_KEY, this.state.get<Record<string, unknown>>(EXPLORER_STATE_KEY) ?? {}, key, entry, MAX_ENTRIES);
  }
}
