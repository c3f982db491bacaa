/**
 * The local engine's model of the data (tables and columns as the question understanding sees
 * them) and of a question (a {@link Plan}: what to compute, independent of SQL spelling).
 */
import type { LongShape } from './wideTables';
import type { DataSource } from '../../shared/domain';
import type { IngestedTable } from '../engine';

/** How a column is used: numbers are measured, categories and dates group and filter. */
export type ColumnKind = 'numeric' | 'temporal' | 'text' | 'boolean' | 'other';

export interface ColumnMeta {
  /** Name as in the table. */
  name: string;
  /** DuckDB type. */
  type: string;
  kind: ColumnKind;
  /**
   * SQL giving the column's typed value. Usually the quoted name; a mostly-numeric text column is
   * `TRY_CAST(...)`, a text column of mixed date formats a `coalesce(try_strptime(...))`.
   */
  expr: string;
  /** True when {@link expr} converts text (values that do not convert are ignored as missing). */
  converted: boolean;
  /** strptime formats of a text column holding dates in several formats (tried in order). */
  dateFormats?: string[];
  /**
   * The typed value as SQL with `{t}` where the table qualifier goes (`sales.` or nothing): numbers
   * written as text, dates written as text, a date made of part columns. Absent: the column itself.
   */
  sqlTemplate?: string;
  /** For a column made of others (a date of `year` and `month`): their names. It is not in the file. */
  derived?: string[];
  /** A measure of a long table named by a key's value: `derived` holds the value column and the key. */
  keyedBy?: { key: string; value: string };
  /** A ratio made on the fly ("price per hp"): `derived` holds the numerator and the denominator. */
  ratio?: boolean;
  /** The finest time bucket a date made of parts can tell apart. */
  partsGrain?: Grain;
  /** Normalised name tokens (lower case, no accents, singular), abbreviations expanded. */
  tokens: string[];
  /** Non-null values and (approximate) distinct values. */
  nonNull: number;
  distinct: number;
  /** Distinct values of a low-cardinality text column, as stored. */
  values?: string[];
  /** Range of numeric and temporal columns (temporal as ISO text). */
  min?: number | string;
  max?: number | string;
  /** Every row has its own value: an identifier, not a category. */
  unique: boolean;
  /** Values of a text column that mean "no value" (`NA`, `N/A`, `NULL`): counted as missing. */
  nullMarkers?: string[];
  /** Text holding lists ("English, Spanish"): values are matched as list items. */
  listLike?: boolean;
  /**
   * What the column is for, decided when the table is read: an identifier (never measured), a
   * count or an amount (adds up), a level (averages).
   */
  role?: 'id' | 'count' | 'amount' | 'level';
  /** Values of a column of nations that name groups of them ("World", "High income"): left out as totals are. */
  placeGroups?: string[];
  /** Values of a category column that are totals of the others ("All", "Total"): left out of sums and groups. */
  totals?: string[];
  /** Numbers written as text: how many non-empty values are not numbers, and one of them ("Ancient"). */
  unreadable?: number;
  unreadableExample?: string;
  /**
   * The column whose things this number describes (`territory_population` is the same on every row
   * of a `territory`): sums and averages count each of them once.
   */
  entityKey?: string;
  /** A number that stands for "not known" (`age` 99): read as missing. */
  missingCode?: { value: number; rows: number };
}

export interface TableMeta {
  /** Internal DuckDB table (never shown to users). */
  table: string;
  /** Name of the CTE that stands for this table in every shown and executed statement. */
  alias: string;
  /** What users call it: `sales.csv`, `book.xlsx, sheet Q1`. */
  label: string;
  source: DataSource;
  ingested: IngestedTable;
  rowCount: number;
  columns: ColumnMeta[];
  /** Normalised tokens of the file (and sheet) name. */
  tokens: string[];
  /** A wide table (one column per year) read as long rows; `ingested.columns` are then the long ones. */
  long?: LongShape;
}

export interface ColRef {
  table: TableMeta;
  column: ColumnMeta;
}

export type Agg = 'count' | 'sum' | 'avg' | 'median' | 'min' | 'max' | 'count_distinct';
/** Time buckets; `weekday` and `hourOfDay` are cyclic (Monday..Sunday, 0..23). */
export type Grain = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year' | 'decade' | 'weekday' | 'hourOfDay' | 'monthOfYear' | 'quarterOfYear';
export type CmpOp = '>' | '>=' | '<' | '<=' | '=' | '<>';

export interface Measure {
  agg: Agg;
  /** Absent for `count` of rows. */
  col?: ColRef;
  /** `count_distinct` of a date in time buckets: "how many years" counts distinct years. */
  grain?: Grain;
}

export interface Dim {
  col: ColRef;
  /** Truncation of a temporal column. */
  grain?: Grain;
}

export type Filter =
  | { kind: 'in'; col: ColRef; values: string[]; negate: boolean }
  /** "Lovelace" in `author` ("Ada Lovelace"), "Basque" in a list `spoken`: whole words, any case. */
  | { kind: 'contains'; col: ColRef; texts: string[]; negate: boolean }
  | { kind: 'cmp'; col: ColRef; op: CmpOp; value: number }
  | { kind: 'between'; col: ColRef; lo: number; hi: number }
  /** Half-open date range [from, to), ISO dates; either end may be open. */
  | { kind: 'dateRange'; col: ColRef; from?: string; to?: string; label: string }
  /** Calendar parts: month(col) = 3 (any year), quarter(col) = 1, year(col) IN (2023, 2024), isodow(col) IN (6, 7). */
  | { kind: 'datePart'; col: ColRef; part: 'month' | 'quarter' | 'year' | 'isodow'; values: number[]; label: string }
  /** Several half-open date ranges, any of them ("Q1 and Q3 2024"). */
  | { kind: 'periods'; col: ColRef; ranges: Array<{ from: string; to: string }>; label: string }
  | { kind: 'bool'; col: ColRef; value: boolean }
  | { kind: 'null'; col: ColRef; isNull: boolean }
  /** "no discount", "no email": missing, or zero for numbers. */
  | { kind: 'none'; col: ColRef }
  /** "customers without orders": the key does not occur in another table. */
  | { kind: 'absentIn'; col: ColRef; other: TableMeta; otherColumn: ColumnMeta };

export type ChartPref = 'auto' | 'none' | 'bar' | 'line';

export interface AggregatePlan {
  kind: 'aggregate';
  /** The measured table (FROM); other tables join to it. */
  base: TableMeta;
  measures: Measure[];
  dims: Dim[];
  filters: Filter[];
  /** Rank groups by the first measure. */
  order?: 'desc' | 'asc';
  limit?: number;
  /** Add each group's percentage of the total of the first measure. */
  share?: boolean;
  /** Share of rows matching `filters` among all rows (no grouping). */
  shareOfFiltered?: boolean;
  /** Indices of filters that define the whole a share is taken of ("of manufacturing workers"). */
  shareScope?: number[];
  /**
   * "average monthly total": the first measure is summed per time bucket of `col`, then averaged
   * over the buckets (one number; no dims).
   */
  perBucket?: { col: ColRef; grain: Grain };
  /**
   * "ratio of area of Alaska to Texas", "how much higher is A than B": two named groups (the values
   * of the one dim, in the question's order) whose first measures are set against each other.
   */
  contrast?: { kind: 'ratio' | 'difference'; first: string; second: string };
  chart: ChartPref;
}

export interface RowsPlan {
  kind: 'rows';
  table: TableMeta;
  filters: Filter[];
  /** Columns the question asks to see ("the manager of the Lisbon store"), listed first. */
  show?: ColRef[];
  orderBy?: { col: ColRef; dir: 'desc' | 'asc' };
  limit: number;
  chart: ChartPref;
}

export type Plan =
  | AggregatePlan
  | RowsPlan
  | { kind: 'histogram'; col: ColRef; filters: Filter[]; chart: ChartPref }
  | { kind: 'correlation'; x: ColRef; y: ColRef; filters: Filter[]; chart: ChartPref }
  | { kind: 'correlationScan'; target: ColRef; others: ColRef[]; filters: Filter[]; chart: ChartPref }
  | { kind: 'missing'; table: TableMeta; col?: ColRef; chart: ChartPref }
  | { kind: 'duplicates'; table: TableMeta; cols: ColRef[]; chart: ChartPref }
  | { kind: 'outliers'; table: TableMeta; cols: ColRef[]; filters: Filter[]; chart: ChartPref }
  | { kind: 'overview'; tables: TableMeta[]; chart: ChartPref };

/** A question the engine could not map, with what it could not place. */
export interface Unanswerable {
  kind: 'unanswerable';
  reason: string;
  /** Words of the question that match nothing in the data. */
  unknown: string[];
}

export type Understanding = Plan | Unanswerable;
