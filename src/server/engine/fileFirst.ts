/**
 * A question asked while a large CSV read in place is still being copied into its columnar cache
 * (duckdb/copyWriter.ts). The full question index waits for that copy (its dozens of scans would
 * otherwise parse the CSV beside it), which on 1 GB made the first question after the overview wait
 * about 5 s. Yet the read's statistics already name every column, its type and range, and every
 * value of the low-cardinality text columns; a plain question ("average revenue by region") reads
 * completely against them. Such a question is answered from the file itself at once, with the copy
 * held (stopped, and written again from the start after the answer) so the two do not share the
 * cores; the answer says so in its steps.
 *
 * Only plans whose every column the statistics describe as exactly as the full index does qualify
 * ({@link statsSuffice}): the index alone knows whether a number column is an identifier or a small
 * set of codes, which text holds numbers or dates, and how a wide table reads as long rows. And the
 * reading must not depend on what the statistics leave open, the number of distinct values of a
 * column they do not list ({@link readsTheSame}): "how many distinct id" read as a count of rows
 * when every id looked distinct (a test's wrong number). Anything else waits for the index, as
 * before: a quicker answer is never a different one.
 *
 * The results of these statements are kept for the same file read ({@link ResultMemo}): a question
 * asked again before the copy is done reads nothing again.
 */
import type { QueryResult } from '../duckdb/duckDbStore';
import { LISTED_VALUES } from '../duckdb/scanStats';
import type { Decision } from './reader';
import { ingestRole, isIdLike } from './shape';
import type { ColRef, ColumnMeta, Filter, Plan, TableMeta } from './types';

/** The text column's every value is known (listed by the statistics, none cut). */
const listedText = (c: ColRef): boolean => c.column.kind === 'text' && c.column.values !== undefined;
/** A plain number column (not an identifier by name or role, nothing computed). */
const plainNumber = (c: ColRef): boolean => c.column.kind === 'numeric' && !c.column.converted && c.column.derived === undefined && c.column.sqlTemplate === undefined && !isIdLike(c.column);
const temporal = (c: ColRef): boolean => c.column.kind === 'temporal' && !c.column.converted && c.column.derived === undefined;

function filterSuffices(f: Filter): boolean {
  switch (f.kind) {
    case 'in':
      return listedText(f.col);
    case 'cmp':
    case 'between':
      return plainNumber(f.col);
    case 'dateRange':
    case 'datePart':
    case 'periods':
      return temporal(f.col);
    default:
      return false;
  }
}

/**
 * Whether the statistics describe every column `plan` reads as exactly as the full index: one
 * table, not read as long rows; sums, averages, extremes and medians of plain number columns, or
 * row counts; groups by listed text values or by dates; filters on listed values, number ranges and
 * dates.
 */
export function statsSuffice(plan: Plan): boolean {
  if (plan.kind !== 'aggregate' || plan.base.long !== undefined || plan.perBucket !== undefined) return false;
  const own = (c: ColRef): boolean => c.table === plan.base;
  const measures = plan.measures.every((m) => m.grain === undefined && (m.col === undefined ? m.agg === 'count' : own(m.col) && m.agg !== 'count' && m.agg !== 'count_distinct' && plainNumber(m.col)));
  const dims = plan.dims.every((d) => own(d.col) && (d.grain !== undefined ? temporal(d.col) : listedText(d.col)));
  const filters = plan.filters.every((f) => own(f.col) && filterSuffices(f));
  return plan.measures.length > 0 && measures && dims && filters && Object.entries(plan).every(([k, v]) => v === undefined || PLAIN_KEYS.has(k));
}

/** The aggregate plan's fields a plain question may set; any other (comparisons of named groups, shares of a scope) waits for the index. */
const PLAIN_KEYS = new Set(['kind', 'base', 'measures', 'dims', 'filters', 'order', 'limit', 'share', 'chart']);

/** A plan by the names it reads (tables and columns as names, not objects), to compare two readings. */
function planKey(plan: Plan): string {
  return JSON.stringify(plan, (key, v: unknown) => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    if ('column' in o && 'table' in o && typeof o['table'] === 'object') return `${(o['table'] as TableMeta).table}.${(o['column'] as { name: string }).name}`;
    if (key === 'base' || key === 'table' || key === 'other') return (o as unknown as TableMeta).table;
    return v;
  });
}

/**
 * The tables with every column whose distinct values the statistics do not list set to each of
 * what it may have: as many as its values (each row its own, unique when none is missing), some
 * dozens (codes of things, `store` 1..45), or barely more than the listed ones (for numbers, two).
 * The role the index would give each column with that count goes with it ("codes are never added").
 */
function openEnds(tables: readonly TableMeta[]): TableMeta[][] {
  const at = (count: (c: ColumnMeta) => number): TableMeta[] => tables.map((t) => ({
    ...t,
    columns: t.columns.map((c) => {
      if (c.values !== undefined) return c;
      const distinct = Math.min(c.nonNull, count(c));
      const open: ColumnMeta = { ...c, distinct, unique: distinct === t.rowCount && distinct > 0 };
      const role = ingestRole(open);
      return role === undefined ? open : { ...open, role };
    }),
  }));
  return [at((c) => c.nonNull), at((c) => (c.kind === 'numeric' ? 45 : LISTED_VALUES * 4)), at((c) => (c.kind === 'numeric' ? 2 : LISTED_VALUES + 1))];
}

/**
 * Whether `read` gives one plain reading of the question against the statistics (`quick`) that
 * stays the same whatever the open distinct counts are: then the index could not read it otherwise.
 */
export function readsTheSame(read: (tables: TableMeta[]) => Decision, quick: TableMeta[]): boolean {
  const d = read(quick);
  if (d.kind !== 'answer' || d.rivals.length > 0 || !statsSuffice(d.reading.plan)) return false;
  const key = planKey(d.reading.plan);
  return openEnds(quick).every((tables) => {
    const e = read(tables);
    return e.kind === 'answer' && e.rivals.length === 0 && planKey(e.reading.plan) === key;
  });
}

/** What identifies the rows of these tables: the file read (a re-read is another version). */
export function memoScope(tables: readonly TableMeta[]): string {
  return tables.map((t) => `${t.table}@${t.source.id}:${t.ingested.inPlace?.version ?? ''}:${t.rowCount}:${t.source.size ?? ''}`).join('|');
}

/** Results of statements by scope and SQL, the most recently used kept. */
export class ResultMemo {
  private readonly results = new Map<string, QueryResult>();

  constructor(private readonly limit = 32) {}

  get(scope: string, sql: string): QueryResult | undefined {
    const key = `${scope}\u0001${sql}`;
    const hit = this.results.get(key);
    if (hit === undefined) return undefined;
    this.results.delete(key);
    this.results.set(key, hit);
    // Each answer gets its own copy: nothing it does changes what the next one reads.
    return structuredClone(hit);
  }

  set(scope: string, sql: string, result: QueryResult): void {
    const key = `${scope}\u0001${sql}`;
    this.results.delete(key);
    this.results.set(key, structuredClone(result));
    while (this.results.size > this.limit) this.results.delete(this.results.keys().next().value as string);
  }
}
