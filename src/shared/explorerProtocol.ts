/**
 * The Data Explorer webview's message protocol (issue 27): one union per direction, shared by the
 * custom editor in the extension host and the explorer bundle (src/webview/explorer/). The grid
 * asks for pages of rows by offset with the view's query (sort and filters); the host asks the
 * local service and answers with the same request id, so a late page of an older query is
 * recognised and dropped. Both sides validate every incoming message and drop what does not fit.
 *
 * Handshake: the webview posts `ready`; the host answers `init` (columns, row count, state, the
 * query restored from the editor's state) and only then posts anything else.
 */
import type { ColumnSummary, ExploreOpened, ExplorePage, ExploreQuery, ExploreStatus } from './explore';
import type { ThemeKind } from './protocol';

export const EXPLORER_PROTOCOL_VERSION = 1;

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
  | { type: 'reloaded'; opened: ExploreOpened };

export type ExplorerAction = 'copySql' | 'exportCsv' | 'exportParquet' | 'ask';

export type ExplorerWebviewToHost =
  | { type: 'ready'; protocol: number }
  | { type: 'fetchRows'; requestId: number; offset: number; limit: number; query: ExploreQuery }
  | { type: 'fetchCount'; requestId: number; query: ExploreQuery }
  | { type: 'fetchSummary'; requestId: number; query: ExploreQuery }
  | { type: 'switchSheet'; sheet: string }
  | { type: 'action'; action: ExplorerAction; query: ExploreQuery }
  /** The webview's state worth keeping with the editor (query, pinned columns, widths). */
  | { type: 'persist'; query: ExploreQuery; pinned: string[]; widths: Record<string, number> }
  /** Something failed inside the webview (an exception, messages dropped as invalid): for the host's log. */
  | { type: 'webviewError'; message: string };
