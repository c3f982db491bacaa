/**
 * What each explorer tab keeps across closing and reopening it (issue 27): the query (sort and
 * filters), pinned columns, column widths and the sheet shown, per file (or answer table, or data
 * source), in the workspace's state. Checked with the protocol's guards when read back: state
 * written by another version must not reach the webview unchecked. Bounded, oldest first out.
 */
import type * as vscode from 'vscode';
import type { ExploreQuery } from '../../shared/explore';
import { isExploreQuery } from '../../shared/explorerGuards';
import { arrayOf, int, isPlainObject, recordOf, str } from '../../shared/guardKit';

export interface ExplorerSaved {
  query: ExploreQuery;
  pinned: string[];
  widths: Record<string, number>;
  sheet?: string;
}

const KEY = 'teamData.explorerState';
const MAX_ENTRIES = 200;
const isPinned = arrayOf(str(1000), 20_000);
const isWidths = recordOf(int(16, 4000), 20_000, 1000);

export class ExplorerMemory {
  constructor(private readonly state: vscode.Memento) {}

  get(key: string): ExplorerSaved | undefined {
    const v = this.state.get<Record<string, unknown>>(KEY)?.[key];
    if (!isPlainObject(v) || !isExploreQuery(v['query']) || !isPinned(v['pinned']) || !isWidths(v['widths'])) return undefined;
    const sheet = typeof v['sheet'] === 'string' ? v['sheet'] : undefined;
    return { query: v['query'], pinned: v['pinned'], widths: v['widths'], ...(sheet !== undefined ? { sheet } : {}) };
  }

  async set(key: string, saved: ExplorerSaved): Promise<void> {
    const all = { ...(this.state.get<Record<string, unknown>>(KEY) ?? {}) };
    delete all[key];
    all[key] = saved;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete all[k];
    await this.state.update(KEY, all);
  }
}
