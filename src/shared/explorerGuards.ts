/**
 * Runtime validators for the Data Explorer's messages in both directions (explorerProtocol.ts).
 * The explorer webview runs {@link isExplorerHostToWebview} on everything it receives and the
 * custom editor runs {@link isExplorerWebviewToHost} on everything the webview posts; anything
 * else is dropped. Typed as `Guard<DeclaredType>`, so a protocol change the guards do not follow
 * fails to compile.
 */
import {
  EXPLORE_LIMITS as X, type ColumnSummary, type ExploreColumn, type ExploreFilter, type ExploreKind, type ExploreOpened,
  type ExplorePage, type ExploreQuery, type ExploreSort, type ExploreStatus,
} from './explore';
import { MAX_PINNED_ROWS, type ExplorerAction, type ExplorerHostToWebview, type ExplorerPanelOrigin, type ExplorerPanelState, type ExplorerPinnedRow, type ExplorerWebviewToHost } from './explorerProtocol';
import { arrayOf, bool, finite, int, literal, oneOf, recordOf, shape, str, tagged, type Guard } from './guardKit';
import { isThemeKind } from './protocolGuards';

/** Bounds of what one message may carry (beyond EXPLORE_LIMITS, which the service enforces). */
export const EXPLORER_MESSAGE_LIMITS = {
  /** Column names, sheet names, file names, view ids. */
  name: 1000,
  columns: 20_000,
  sheets: 1000,
  /** One cell's text as sent to the grid (the service truncates longer values). */
  cell: 64 * 1024,
  message: 65_536,
  requestId: Number.MAX_SAFE_INTEGER,
  rows: Number.MAX_SAFE_INTEGER,
} as const;

const M = EXPLORER_MESSAGE_LIMITS;
const name = str(M.name);
const rows = int(0, M.rows);
const requestId = int(0, M.requestId);
const message = str(M.message);
const version = int(1, 1_000_000);
const filterText = str(X.text);
const bound = oneOf(finite(), str(64));

export const isExploreKind: Guard<ExploreKind> = literal('number', 'text', 'date', 'datetime', 'boolean', 'other');

export const isExploreColumn: Guard<ExploreColumn> = shape({ name, type: str(200), kind: isExploreKind });

export const isExploreSort: Guard<ExploreSort> = shape({ column: name, desc: bool });

export const isExploreFilter: Guard<ExploreFilter> = oneOf(
  shape(
    { column: name, op: literal('contains', 'startsWith', 'regex'), text: filterText },
    { caseSensitive: bool, negate: bool },
  ),
  shape({ column: name, op: literal('between') }, { min: bound, max: bound }),
  shape({ column: name, op: literal('in'), values: arrayOf(filterText, X.inValues) }, { negate: bool }),
  shape({ column: name, op: literal('missing') }, { negate: bool }),
);

export const isExploreQuery: Guard<ExploreQuery> = shape({
  sort: arrayOf(isExploreSort, X.sort),
  filters: arrayOf(isExploreFilter, X.filters),
});

export const isExploreOpened: Guard<ExploreOpened> = shape(
  { viewId: name, fileName: name, columns: arrayOf(isExploreColumn, M.columns), state: literal('ready', 'reading') },
  { sheets: arrayOf(name, M.sheets), sheet: name, rowCount: rows },
);

export const isExploreStatus: Guard<ExploreStatus> = shape(
  { state: literal('ready', 'reading', 'failed') },
  { done: rows, total: rows, rowCount: rows, error: message },
);

/** A cell as JSON carries it: DuckDB values are sent as text, numbers, booleans or null. */
const isCell: Guard<string | number | boolean | null> = (v): v is string | number | boolean | null =>
  v === null || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v)) || (typeof v === 'string' && v.length <= M.cell);

export const isExplorerPinnedRow: Guard<ExplorerPinnedRow> = shape({ index: rows, values: arrayOf(isCell, M.columns) });

/** Indices of pinned rows, as persisted. */
export const isPinnedRowIndices: Guard<number[]> = arrayOf(rows, MAX_PINNED_ROWS);

/** Data source and dataset ids (the service's own, opaque). */
const id = str(200);
/** An absolute path of the answer-file cache (its meaning is checked by the host before use). */
const path = str(4096);

export const isExplorerPanelOrigin: Guard<ExplorerPanelOrigin> = oneOf(
  shape({ kind: literal('table'), path, name }),
  shape({ kind: literal('source'), datasourceId: id, datasetId: id, name }),
);

/** A panel's state as the webview kept it: read back by the panel serializer after a reload. */
export const isExplorerPanelState: Guard<ExplorerPanelState> = shape({ v: literal(1), origin: isExplorerPanelOrigin });

export const isExplorePage: Guard<ExplorePage> = shape(
  { offset: rows, rows: arrayOf(arrayOf(isCell, M.columns), X.pageRows) },
  { matching: rows },
);

const statValue = oneOf(finite(), str(200));

export const isColumnSummary: Guard<ColumnSummary> = shape(
  { column: name, kind: isExploreKind, count: rows, missing: rows },
  {
    distinct: rows,
    empty: rows,
    zero: rows,
    min: statValue,
    max: statValue,
    mean: finite(),
    median: statValue,
    stdev: finite(),
    histogram: arrayOf(rows, 1000),
    top: arrayOf(shape({ value: str(X.text), count: rows }), 1000),
  },
);

export const isExplorerHostToWebview: Guard<ExplorerHostToWebview> = tagged<ExplorerHostToWebview, 'type'>('type', {
  init: shape({
    type: literal('init'),
    protocol: version,
    opened: isExploreOpened,
    query: isExploreQuery,
    theme: isThemeKind,
    pinned: arrayOf(name, M.columns),
  }, { widths: recordOf(int(16, 4000), M.columns, M.name) }),
  status: shape({ type: literal('status'), status: isExploreStatus }),
  page: shape({ type: literal('page'), requestId, page: isExplorePage }),
  count: shape({ type: literal('count'), requestId, matching: rows }),
  summary: shape({ type: literal('summary'), requestId, columns: arrayOf(isColumnSummary, M.columns) }),
  error: shape({ type: literal('error'), message }, { requestId }),
  theme: shape({ type: literal('theme'), theme: isThemeKind }),
  reloaded: shape({ type: literal('reloaded'), opened: isExploreOpened }),
  pinnedRows: shape({ type: literal('pinnedRows'), query: isExploreQuery, rows: arrayOf(isExplorerPinnedRow, MAX_PINNED_ROWS) }),
  panelState: shape({ type: literal('panelState'), state: isExplorerPanelState }),
});

export const isExplorerAction: Guard<ExplorerAction> = literal('copySql', 'exportCsv', 'exportParquet', 'ask');

export const isExplorerWebviewToHost: Guard<ExplorerWebviewToHost> = tagged<ExplorerWebviewToHost, 'type'>('type', {
  ready: shape({ type: literal('ready'), protocol: version }),
  fetchRows: shape({ type: literal('fetchRows'), requestId, offset: rows, limit: int(1, X.pageRows), query: isExploreQuery }),
  fetchCount: shape({ type: literal('fetchCount'), requestId, query: isExploreQuery }),
  fetchSummary: shape({ type: literal('fetchSummary'), requestId, query: isExploreQuery }),
  switchSheet: shape({ type: literal('switchSheet'), sheet: name }),
  action: shape({ type: literal('action'), action: isExplorerAction, query: isExploreQuery }),
  persist: shape({
    type: literal('persist'),
    query: isExploreQuery,
    pinned: arrayOf(name, M.columns),
    widths: recordOf(int(16, 4000), M.columns, M.name),
  }, { pinnedRows: isPinnedRowIndices }),
  webviewError: shape({ type: literal('webviewError'), message }),
});
