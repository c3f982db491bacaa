/**
 * The parts a question is read into: each is a phrase of the grammar with what it means. The
 * composer turns the parts of one parse into a plan; the writer writes a plan back as parts.
 */
import type { Tok } from '../language/tokens';
import type { AttrHit, ColHit, RowsHit, ValHit } from './lattice';
import type { Node } from './parser';
import type { Agg, CmpOp, Grain } from './types';

export type Dir = 'desc' | 'asc';

export interface ColM extends Node { alts: ColHit[] }
export interface ValM extends Node { alts: ValHit[]; text: string }
export interface RowsM extends Node { alts: RowsHit[] }
export interface AttrM extends Node { alts: AttrHit[]; word: string }
export interface NumM extends Node { value: number; unit?: string; yearLike?: boolean; ordinal?: boolean; raw: string }

/** A time the question names: a range of days (half-open ISO dates) or calendar parts (any year). */
export interface When {
  from?: string;
  to?: string;
  part?: { part: 'month' | 'quarter' | 'year' | 'isodow'; values: number[] };
  label: string;
  /** "the 1800s": also the century. */
  alsoCentury?: { from: string; to: string };
  /** Several periods named to be set side by side ("2023 vs 2024", "Q1 and Q2 2024"). */
  periods?: When[];
  /** The last N days, months...: counted back from the data's latest date. `whole`: the last whole unit ("last year"). */
  rel?: { n: number; grain: Grain; whole?: boolean };
}

export type DimSpec =
  | (Node & { d: 'col'; col: ColM; grain?: Grain })
  | (Node & { d: 'grain'; grain: Grain; of?: ColM })
  | (Node & { d: 'rows'; rows: RowsM });

export type Intent = 'histogram' | 'correlation' | 'missing' | 'duplicates' | 'outliers' | 'overview';
export type ChartWish = 'table' | 'line' | 'bar' | 'chart';
export type Edit = 'instead' | 'whatAbout' | 'only' | 'also' | 'same' | 'again' | 'all' | 'clear' | 'list' | 'columns';

export type PartBody =
  /** `unit`: said per unit of time ("average daily trips"); `totals`: "average monthly total of". */
  | { k: 'measure'; aggs: Agg[]; cols: ColM[]; unit?: Grain; totals?: boolean }
  | { k: 'aggs'; aggs: Agg[]; adverb?: boolean }
  | { k: 'col'; col: ColM; neg?: boolean }
  | { k: 'contains'; col: ColM; text: string; neg?: boolean }
  | { k: 'val'; vals: ValM[]; joiner?: 'and' | 'or'; neg?: boolean; named?: ColM; rate?: boolean }
  | { k: 'rows'; rows: RowsM; vals?: ValM[]; n?: number }
  | { k: 'count'; distinct: boolean; target?: ColM | RowsM | ValM[] | Grain; rows?: RowsM; vals?: ValM[]; qual?: ColM }
  | { k: 'group'; dims: DimSpec[]; adj?: boolean; within?: boolean }
  | { k: 'everything' }
  | { k: 'trend' }
  | { k: 'which'; dim?: DimSpec; also?: DimSpec; rows?: RowsM; who?: 'who' | 'when'; n?: number }
  | { k: 'rank'; dir: Dir; word: string; aggs?: Agg[]; cols?: ColM[]; rows?: RowsM; attr?: AttrM; counted?: boolean; mode?: boolean; dim?: DimSpec; plain?: boolean; when?: boolean; grain?: Grain; show?: ColM }
  | { k: 'top'; dir: Dir; n: number; dim?: DimSpec; rows?: RowsM; by?: { aggs?: Agg[]; col?: ColM; counted?: boolean }; attr?: AttrM }
  | { k: 'order'; dir?: Dir; col?: ColM }
  | { k: 'cmp'; col?: ColM; attr?: AttrM; op: CmpOp; num: NumM; hi?: NumM; unitCol?: ColM; rowsAfter?: boolean; /** "`Status` = 0 or 2": any of these. */ alts?: NumM[] }
  | { k: 'when'; when: When; op?: 'since' | 'after' | 'before' | 'until' }
  | { k: 'null'; col: ColM; isNull: boolean; none?: boolean }
  | { k: 'share' }
  | { k: 'compare'; how: 'compare' | 'vs' | 'difference' | 'ratio' | 'howMuch' }
  | { k: 'intent'; intent: Intent }
  | { k: 'chart'; wish: ChartWish }
  | { k: 'edit'; edit: Edit }
  | { k: 'neg' }
  | { k: 'absent'; rows: RowsM }
  /** `code`: one value of the column, written after it (`sex` = 2). */
  | { k: 'define'; phrase: string; col?: ColM; val?: ValM; code?: string }
  /** `predicate`: a verb with nothing after it that the data names ("were sold"). */
  | { k: 'filler'; word: Tok; predicate?: boolean }
  | { k: 'unknown'; word: Tok };

export type Part = Node & PartBody;

/** One parse of a question: its parts in order, and what the parse costs. */
export interface Parse {
  parts: Part[];
  cost: number;
}
