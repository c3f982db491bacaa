/**
 * The Data Explorer's view of one table (issue 27): what the local service's explore routes take
 * and give (`/local/v1/explore/...`, see server/explore/), and what the explorer webview and the
 * extension pass between them (explorerProtocol.ts). A view is a file (or one sheet of it) with
 * a sort and filters; every filter and sort is applied by DuckDB on the whole file.
 */

/** How a column is shown and filtered. */
export type ExploreKind = 'number' | 'text' | 'date' | 'datetime' | 'boolean' | 'other';

export interface ExploreColumn {
  name: string;
  /** DuckDB's type (`BIGINT`, `VARCHAR`, `TIMESTAMP`...). */
  type: string;
  kind: ExploreKind;
}

export interface ExploreSort {
  column: string;
  desc: boolean;
}

/** One condition of the filter bar; all conditions hold at once. */
export type ExploreFilter =
  | { column: string; op: 'contains' | 'startsWith' | 'regex'; text: string; caseSensitive?: boolean; negate?: boolean }
  /** Numbers, or ISO dates/timestamps for date columns; either end may be open. Inclusive. */
  | { column: string; op: 'between'; min?: number | string; max?: number | string }
  /** Values as shown (text); numbers and dates are compared as their text. */
  | { column: string; op: 'in'; values: string[]; negate?: boolean }
  | { column: string; op: 'missing'; negate?: boolean };

export interface ExploreQuery {
  sort: ExploreSort[];
  filters: ExploreFilter[];
}

/** What opening a view gives: enough to draw the grid's frame at once. */
export interface ExploreOpened {
  viewId: string;
  /** The file as the user named it (base name), and the sheet shown for a workbook. */
  fileName: string;
  sheets?: string[];
  sheet?: string;
  columns: ExploreColumn[];
  /** Rows in the file, once known (a large CSV is counted while its first rows show). */
  rowCount?: number;
  /**
   * `ready`: sort, filter and summary run on the whole file now. `reading`: the full read goes on
   * (first rows only until it ends; its progress comes with `status`).
   */
  state: 'ready' | 'reading';
}

export interface ExploreStatus {
  state: 'ready' | 'reading' | 'failed';
  /**
   * Goes up each time the file changed on disk and was read again (0 for the first read); with
   * `columns`, the view's columns now (a changed file may have others). A client that sees a new
   * version fetches its pages, count and summary again.
   */
  version?: number;
  columns?: ExploreColumn[];
  /** An export of this view in progress: the share written so far (0..1). */
  export?: { fraction: number };
  /** Bytes read of the file so far, and its size, while reading. */
  done?: number;
  total?: number;
  rowCount?: number;
  /** Why the read failed, in plain words. */
  error?: string;
}

export interface ExplorePage {
  offset: number;
  rows: unknown[][];
  /** Rows matching the filters (all rows without filters), when counted. */
  matching?: number;
}

export interface ColumnSummary {
  column: string;
  kind: ExploreKind;
  count: number;
  missing: number;
  distinct?: number;
  empty?: number;
  zero?: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  median?: number | string;
  stdev?: number;
  /** Numbers and dates: equal-width bins over [min, max]. */
  histogram?: number[];
  /** Text and booleans: the most common values and their counts. */
  top?: Array<{ value: string; count: number }>;
}

/** Bounds the service enforces on every explore request. */
export const EXPLORE_LIMITS = {
  pageRows: 1000,
  /** Columns a view may have (a wider file is refused at open, in plain words). */
  columns: 2000,
  /** Views open at once on the service (all clients together). */
  views: 32,
  /** Columns one summary request may ask for. */
  summaryColumns: 200,
  sort: 8,
  filters: 32,
  inValues: 1000,
  text: 1000,
  histogramBins: 20,
  topValues: 10,
} as const;

/** A value as JSON with object keys sorted: equal for equal queries whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Whether two queries select and order the same rows (the same sort and filters). */
export function sameQuery(a: ExploreQuery, b: ExploreQuery): boolean {
  return canonical(a) === canonical(b);
}
