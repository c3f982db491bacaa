/**
 * The Data Explorer webview's message protocol (issue 27): one union per direction, shared by the
 * custom editor in the extension host and the explorer bundle (src/webview/explorer/). The grid
 * asks for pages of rows by offset with the view's query (sort and filters); the host asks the
 * local service and answers with the same request id, so a late page of an older query is
 * recognised and dropped. Both sides validate every incoming message and drop what does not fit.
 *
 * Handshake: the webview posts `ready`; the host answers `init` (columns, row count, state, the
 * query restored from the editor's state) and only then posts anything else — except a panel's
 * `panelState`, which comes first so that a tab that fails to open is restored all the same.
 */
import type { ColumnSummary, ExploreOpened, ExplorePage, ExploreQuery, ExploreStatus } from './explore';
import type { ThemeKind } from './protocol';

export const EXPLORER_PROTOCOL_VERSION = 1;

/** Rows a tab may pin at the top (they are persisted by index with the query they belong to). */
export const MAX_PINNED_ROWS = 50;

/** A row pinned at the top: its index in the view under the query, and its values. */
export interface ExplorerPinnedRow {
  index: number;
  values: Array<string | number | boolean | null>;
}

/**
 * What a panel tab (not a file: a data source or an answer table) comes from, kept in the
 * webview's own state (`setState`) so that the panel serializer can open it again after a window
 * reload. Files need none: VS Code restores the custom editor by its document's URI.
 */
export type ExplorerPanelOrigin =
  /** An answer table: `path` is the host's cached copy of the CSV (under the answer-file cache). */
  | { kind: 'table'; path: string; name: string }
  | { kind: 'source'; datasourceId: string; datasetId: string; name: string };

export interface ExplorerPanelState {
  /** The explorer's panel state format (1). */
  v: 1;
  origin: ExplorerPanelOrigin;
}

export interface ExplorerInit {
  type: 'init';
  protocol: number;
  opened: ExploreOpened;
  query: ExploreQuery;
  theme: ThemeKind;
  /** Columns kept at the left while scrolling sideways, by name. */
  pinned: string[];
  /** Column widths in CSS pixels, by name, as last persisted (`persist`). */
  widths?: Record<string, number>;
}

export type ExplorerHostToWebview =
  | ExplorerInit
  | { type: 'status'; status: ExploreStatus }
  | { type: 'page'; requestId: number; page: ExplorePage }
  | { type: 'count'; requestId: number; matching: number }
  | { type: 'summary'; requestId: number; columns: ColumnSummary[] }
  /** A request failed (a bad regex, a file that changed); `requestId` absent: the view itself failed. */
  | { type: 'error'; requestId?: number; message: string }
  | { type: 'theme'; theme: ThemeKind }
  /** The file changed on disk and was read again: the grid starts over with this frame. */
  | { type: 'reloaded'; opened: ExploreOpened }
  /**
   * The rows pinned before the tab was closed (or its webview reloaded), fetched again by index
   * under `query`: the webview shows them only while its query is still that one.
   */
  | { type: 'pinnedRows'; query: ExploreQuery; rows: ExplorerPinnedRow[] }
  /** A panel tab's origin, for the webview to keep with `setState` (a window reload brings it back). */
  | { type: 'panelState'; state: ExplorerPanelState };

export type ExplorerAction = 'copySql' | 'exportCsv' | 'exportParquet' | 'ask';

export type ExplorerWebviewToHost =
  | { type: 'ready'; protocol: number }
  | { type: 'fetchRows'; requestId: number; offset: number; limit: number; query: ExploreQuery }
  | { type: 'fetchCount'; requestId: number; query: ExploreQuery }
  | { type: 'fetchSummary'; requestId: number; query: ExploreQuery }
  | { type: 'switchSheet'; sheet: string }
  | { type: 'action'; action: ExplorerAction; query: ExploreQuery }
  /**
   * The webview's state worth keeping with the editor (query, pinned columns, widths, and the
   * indices of the rows pinned at the top under that query).
   */
  | { type: 'persist'; query: ExploreQuery; pinned: string[]; widths: Record<string, number>; pinnedRows?: number[] }
  /** Something failed inside the webview (an exception, messages dropped as invalid): for the host's log. */
  | { type: 'webviewError'; message: string };
