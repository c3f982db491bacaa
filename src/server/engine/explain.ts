/**
 * Which words of a question a plan accounts for, checked after the plan is built and independently
 * of how it was built: a column the question names must be used by the plan, a value must be
 * filtered on, a number must appear in a filter or a limit, "average" must be an average, "by"
 * must group. Whatever the plan leaves out is reported, so a reading that silently drops part of
 * the question can never answer with a number.
 */
import type { Cue } from './cues';
import type { DateExpr } from './dates';
import { joinKey } from './joins';
import { MEASURE_NOUNS } from './nouns';
import { ROW_WORDS } from './lexicon';
import type { Span } from './mentions';
import { denseIds, pluralOfName, type Parse } from './roles';
import { STOP_WORDS, type Token } from './text';
import type { Agg, ColumnMeta, Filter, Plan, TableMeta } from './types';

export interface Coverage {
  /** Token indices the plan explains. */
  explained: Set<number>;
  /** Words that name a column, value or table of the data but are not used by the plan. */
  unusedNames: number[];
  /** Cue words (aggregates, groupings, comparisons...) and numbers the plan does not reflect. */
  unusedCues: number[];
  /** Content words that name nothing at all. */
  unknown: number[];
  /** What the plan adds that the question never asked for (a count of rows out of nowhere). */
  invented: string[];
}

interface PlanFacts {
  columns: Set<ColumnMeta>;
  tables: Set<TableMeta>;
  aggs: Agg[];
  filters: Filter[];
  grains: string[];
  dims: number;
  limit?: number;
  ordered: boolean;
  numbers: number[];
}

function facts(plan: Plan): PlanFacts {
  const f: PlanFacts = { columns: new Set(), tables: new Set(), aggs: [], filters: [], grains: [], dims: 0, ordered: false, numbers: [] };
  const col = (c: { table: TableMeta; column: ColumnMeta }): void => {
    f.columns.add(c.column);
    f.tables.add(c.table);
  };
  switch (plan.kind) {
    case 'aggregate':
      f.tables.add(plan.base);
      for (const m of plan.measures) {
        f.aggs.push(m.agg);
        if (m.col) col(m.col);
      }
      for (const d of plan.dims) {
        col(d.col);
        if (d.grain) f.grains.push(d.grain);
      }
      f.dims = plan.dims.length;
      if (plan.perBucket !== undefined) {
        col(plan.perBucket.col);
        f.grains.push(plan.perBucket.grain);
        f.aggs.push('sum');
        f.dims = 1;
      }
      f.filters = plan.filters;
      if (plan.limit !== undefined) f.limit = plan.limit;
      f.ordered = plan.order !== undefined;
      break;
    case 'rows':
      f.tables.add(plan.table);
      f.filters = plan.filters;
      f.limit = plan.limit;
      for (const c of plan.show ?? []) col(c);
      if (plan.orderBy) {
        col(plan.orderBy.col);
        f.ordered = true;
      }
      break;
    case 'histogram':
      col(plan.col);
      f.filters = plan.filters;
      break;
    case 'correlation':
      col(plan.x);
      col(plan.y);
      f.filters = plan.filters;
      break;
    case 'correlationScan':
      col(plan.target);
      f.filters = plan.filters;
      break;
    case 'missing':
      f.tables.add(plan.table);
      if (plan.col) col(plan.col);
      break;
    case 'duplicates':
      f.tables.add(plan.table);
      for (const c of plan.cols) col(c);
      break;
    case 'outliers':
      f.tables.add(plan.table);
      for (const c of plan.cols) col(c);
      f.filters = plan.filters;
      break;
    case 'overview':
      for (const t of plan.tables) f.tables.add(t);
      break;
  }
  for (const x of f.filters) {
    col(x.col);
    if (x.kind === 'absentIn') f.tables.add(x.other);
    if (x.kind === 'cmp') f.numbers.push(x.value);
    if (x.kind === 'between') f.numbers.push(x.lo, x.hi);
    if (x.kind === 'datePart') f.numbers.push(...x.values);
    if (x.kind === 'in') for (const v of x.values) if (/^-?\d+(\.\d+)?$/.test(v.trim())) f.numbers.push(Number(v));
  }
  if (f.limit !== undefined) f.numbers.push(f.limit);
  return f;
}

/** Whether a filter is the one a date expression asked for. */
function dateUsed(d: DateExpr, fs: readonly Filter[]): boolean {
  const year = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Number(iso.slice(0, 4)));
  return fs.some((f) => {
    if (f.kind === 'dateRange') return (f.from === d.from || d.from === undefined) && (f.to === d.to || d.to === undefined) && (d.from !== undefined || d.to !== undefined);
    if (f.kind === 'datePart') {
      if (d.part !== undefined) return f.part === d.part.part && f.values.includes(d.part.value);
      return f.part === 'year' && year(d.from) !== undefined && f.values.includes(year(d.from) ?? NaN);
    }
    // A year written in the question, applied to a numeric year column.
    const y = year(d.from) ?? year(d.to);
    if (f.kind === 'cmp' && y !== undefined) return [y, year(d.to), (year(d.to) ?? 0) - 1].includes(f.value);
    if (f.kind === 'between' && y !== undefined) return f.lo === y || f.hi === (year(d.to) ?? 0) - 1 || f.hi === y;
    return false;
  });
}

/**
 * "average quantity per order" where each order is a row: an average over the rows. Only averages
 * (and medians) read this way: "total points by team" with one row per team asks for each team's
 * points, and a grand total would answer another question.
 */
function perRow(c: Cue, plan: Plan, p: Parse): boolean {
  const base = plan.kind === 'aggregate' && plan.measures.every((m) => m.agg === 'avg' || m.agg === 'median') ? plan.base : undefined;
  const s = p.spans.find((x) => x.start >= c.end && x.start <= c.end + 1);
  if (base === undefined || s === undefined) return false;
  if (s.kind === 'table') return s.table === base;
  return s.kind === 'column' && s.cols.some((x) => x.table === base && x.column.unique);
}

/** Superlatives that rank by how often something occurs. */
const FREQUENCY = /^(most|least|fewest|top|bottom|common|popular|frequent|most common|most frequent|busiest)$/;

/** "largest country by area": the column after "by" ranks the answer instead of grouping it. */
function ranksBy(c: Cue, plan: Plan, p: Parse): boolean {
  const s = p.spans.find((x) => x.start >= c.end && x.start <= c.end + 1);
  if (s?.kind !== 'column') return false;
  const cols = new Set(s.cols.map((x) => x.column));
  if (plan.kind === 'rows') return plan.orderBy !== undefined && cols.has(plan.orderBy.col.column);
  return plan.kind === 'aggregate' && plan.order !== undefined && plan.measures[0]?.col !== undefined && cols.has(plan.measures[0].col.column);
}

function cueUsed(c: Cue, f: PlanFacts, plan: Plan, p: Parse): boolean {
  switch (c.kind) {
    case 'agg':
      if (c.agg === 'count') return f.aggs.some((a) => a === 'count' || a === 'count_distinct') || plan.kind === 'rows';
      // "total" also means "all together" ("total number of cars"): a sum or a count reflects it.
      if (c.agg === 'sum') return f.aggs.some((a) => a === 'sum' || a === 'count' || a === 'count_distinct');
      return f.aggs.includes(c.agg);
    case 'superlative':
      // "the highest error rate" must rank a measure; only "most"/"fewest" may rank a count of rows.
      if (plan.kind === 'aggregate' && plan.measures.every((m) => m.agg === 'count' && m.col === undefined) && !FREQUENCY.test(c.word)
        && !p.cues.some((x) => x.kind === 'count' || (x.kind === 'agg' && x.agg === 'count'))) return false;
      return f.ordered || f.aggs.includes('max') || f.aggs.includes('min');
    case 'topN':
      // "top 5" of one number is no ranking: it needs groups or rows.
      return f.limit === c.n && (plan.kind !== 'aggregate' || f.dims > 0);
    case 'group':
      return f.dims > 0 || plan.kind === 'correlationScan' || ranksBy(c, plan, p) || perRow(c, plan, p);
    case 'grain':
      return f.grains.includes(c.grain) || c.asUnit === true;
    case 'trend':
      return f.grains.length > 0;
    case 'count':
      // "the record number of visits": the number of them is the `visits` column the rows are ranked by.
      // "how many outliers" counts outliers; "how many rows were anomalies" is not an outlier count.
      return f.aggs.some((a) => a === 'count' || a === 'count_distinct' || a === 'sum') || plan.kind === 'duplicates' || plan.kind === 'missing'
        || (plan.kind === 'outliers' && plan.cols.length === 1 && p.cues.some((x) => x.kind === 'intent' && x.intent === 'outliers' && x.at <= c.end + 1))
        || (plan.kind === 'rows' && plan.orderBy !== undefined && plan.orderBy.col.column.kind === 'numeric');
    case 'distinct':
      return f.aggs.includes('count_distinct') || f.dims > 0 || plan.kind === 'duplicates';
    case 'share':
      return plan.kind === 'aggregate' && (plan.share === true || plan.shareOfFiltered === true);
    case 'cmp':
    case 'between':
      // "the correlation between A and B": a pair, not a range.
      return f.filters.some((x) => x.kind === 'cmp' || x.kind === 'between' || x.kind === 'dateRange') || (c.kind === 'between' && plan.kind === 'correlation');
    case 'negate':
      return f.filters.some((x) => (x.kind === 'in' && x.negate) || x.kind === 'none' || x.kind === 'absentIn' || (x.kind === 'bool' && !x.value) || (x.kind === 'cmp' && x.op === '<>') || (x.kind === 'null' && x.isNull));
    case 'intent':
      switch (c.intent) {
        case 'histogram':
          return plan.kind === 'histogram' || f.dims > 0;
        case 'correlation':
          return plan.kind === 'correlation' || plan.kind === 'correlationScan';
        case 'missing':
          return plan.kind === 'missing' || f.filters.some((x) => x.kind === 'none' || (x.kind === 'null' && x.isNull));
        case 'duplicates':
          return plan.kind === 'duplicates';
        case 'outliers':
          return plan.kind === 'outliers';
        case 'overview':
          return plan.kind === 'overview';
        default:
          // Listing, comparing and presentation words ("show", "vs", "as a table") shape the answer, not the number.
          return true;
      }
  }
}

function spanUsed(s: Span, f: PlanFacts, plan: Plan, p: Parse): boolean {
  switch (s.kind) {
    case 'column': {
      if (s.cols.some((c) => f.columns.has(c.column))) return true;
      // Missing values of every column cover whatever column "values" could name.
      if (plan.kind === 'missing' && plan.col === undefined && s.cols.some((c) => c.table === plan.table)) return true;
      // "southern states" where each row is a state: the unique name column names the rows.
      const rowsOf = plan.kind === 'aggregate' ? plan.base : plan.kind === 'rows' ? plan.table : undefined;
      if (rowsOf !== undefined && s.cols.some((c) => c.table === rowsOf && c.column.unique && c.column.kind === 'text')) return true;
      // "team budget" in a correlation: the name before a measured column only says whose it is.
      const next = p.spans.find((x) => x.start === s.end);
      if ((plan.kind === 'correlation' || plan.kind === 'histogram' || plan.kind === 'correlationScan') && next?.kind === 'column'
        && next.cols.some((c) => f.columns.has(c.column)) && s.cols.every((c) => c.column.kind !== 'numeric')) return true;
      // "customers who have not ordered": the other table is looked into, not measured.
      if (f.filters.some((x) => x.kind === 'absentIn' && s.cols.some((c) => c.table === x.other))) return true;
      // `quarter` of a date made of `year` and `quarter`: used through that date.
      if (s.cols.some((c) => [...f.columns].some((u) => u.derived?.includes(c.column.name) === true && u !== c.column))) return true;
      // "how many readings" where `readings` could be a column: a noun for rows, counted as rows.
      if (plan.kind === 'aggregate' && s.end === s.start + 1 && p.taken.has(s) && ROW_WORDS.has(p.tokens[s.start]?.stem ?? '')
        && plan.measures.some((m) => m.agg === 'count' && m.col === undefined)) return true;
      // "per order" where each order is one row, or "orders" naming the id column: the rows themselves.
      const base = plan.kind === 'aggregate' ? plan.base : plan.kind === 'rows' ? plan.table : undefined;
      // "of individuals" over a whole-number `individual` numbering them: whose rows these are.
      if (base !== undefined && p.taken.has(s) && s.cols.some((c) => c.table === base && denseIds(c.column) && pluralOfName(p, s, c))) return true;
      return base !== undefined && s.cols.some((c) => c.table === base && c.column.unique && /(^|[^a-z])(id|key|code|no|number)$/i.test(c.column.name) && p.taken.has(s));
    }
    case 'value':
      return f.filters.some((x) => (x.kind === 'in' && s.matches.some((m) => m.ref.column === x.col.column && x.values.includes(m.value)))
        || (x.kind === 'contains' && s.matches.some((m) => m.ref.column === x.col.column)))
        || (plan.kind === 'aggregate' && plan.dims.some((d) => s.matches.some((m) => m.ref.column === d.col.column)));
    case 'table':
      // "teams by number of players" where each team is one row: counting rows per a unique
      // column gives 1 for every group, so the noun cannot be the rows being counted.
      if (plan.kind === 'aggregate' && plan.dims.length > 0 && plan.dims.every((d) => d.col.table === s.table && d.col.column.unique)
        && plan.measures.some((m) => m.agg === 'count' && m.col === undefined)) return false;
      // "top 5 customers by amount": customers.csv reached through its key in the measured table.
      return f.tables.has(s.table) || [...f.tables].some((t) => t !== s.table && joinKey(t, s.table) !== undefined && [...f.columns].includes(joinKey(t, s.table)?.left as ColumnMeta));
  }
}

function isContent(t: Token): boolean {
  if (t.kind === 'number' || t.kind === 'date') return true;
  if (t.kind !== 'word') return false;
  return !STOP_WORDS.has(t.norm) && !STOP_WORDS.has(t.stem) && t.norm.length >= 2 && !ROW_WORDS.has(t.stem);
}

/** "remote vs office": a yes/no column split into its two sides; the other side's name is the "no". */
function flagComplement(i: number, plan: Plan, p: Parse): boolean {
  if (plan.kind !== 'aggregate' || !/^(vs|versus|or|and)$/.test(p.tokens[i - 1]?.norm ?? '')) return false;
  const s = p.spans.find((x) => x.end === i - 1);
  return s?.kind === 'column' && s.cols.some((c) => (c.column.kind === 'boolean' || (c.column.min === 0 && c.column.max === 1)) && plan.dims.some((d) => d.col.column === c.column));
}

/** The plan measures a column ("the average error rate": "rate" is what is measured). */
function measured(plan: Plan): boolean {
  return (plan.kind === 'aggregate' && plan.measures.some((m) => m.col !== undefined && m.agg !== 'count_distinct'))
    || plan.kind === 'histogram' || plan.kind === 'correlation' || (plan.kind === 'rows' && plan.orderBy !== undefined);
}

/** Selling and buying words fit a total of money or quantity ("which product sold the most units"). */
const SALE_VERBS = /^(sold|sell|sells|selling|bought|buy|buys|purchased|purchase|spend|spent|spends|paid|pay|pays|earn|earns|earned)$/;
function saleVerbFits(t: Token, plan: Plan): boolean {
  if (!SALE_VERBS.test(t.norm) || plan.kind !== 'aggregate') return false;
  return plan.measures.some((m) => m.col !== undefined && MONEY_OR_QUANTITY.test(m.col.column.name));
}
const MONEY_OR_QUANTITY = /(revenue|amount|price|sales?|total|cost|value|income|salary|spend|paid|payment|fee|profit|wage|earning|qty|quantity|units?|volume)/i;

/** What `plan` explains of the question parsed as `p`. */
export function coverage(plan: Plan, p: Parse): Coverage {
  const f = facts(plan);
  const explained = new Set<number>();
  const mark = (a: number, b: number): void => {
    for (let k = a; k < b; k++) explained.add(k);
  };
  const unusedNames: number[] = [];
  const unusedCues: number[] = [];
  for (const s of p.spans) {
    if (spanUsed(s, f, plan, p)) mark(s.start, s.end);
    else for (let k = s.start; k < s.end; k++) unusedNames.push(k);
  }
  for (const d of p.dates) {
    if (dateUsed(d, f.filters) || (plan.kind === 'aggregate' && plan.dims.some((x) => x.grain === 'year'))) mark(d.at, d.end);
  }
  for (const c of p.cues) {
    if (cueUsed(c, f, plan, p)) mark(c.at, c.end);
    else for (let k = c.at; k < c.end; k++) if (!explained.has(k)) unusedCues.push(k);
  }
  // Numbers: used as a filter value, a limit, a year or part of a date.
  p.tokens.forEach((t, i) => {
    if (t.kind !== 'number' || explained.has(i)) return;
    const tv = t.value;
    if (tv !== undefined && f.numbers.some((v) => v === tv || Math.abs(v - tv * 0.01) < 1e-12)) explained.add(i);
  });
  const unknown: number[] = [];
  p.tokens.forEach((t, i) => {
    if (explained.has(i) || unusedNames.includes(i) || unusedCues.includes(i) || p.used.has(i)) return;
    if (!isContent(t)) return;
    if (flagComplement(i, plan, p) || saleVerbFits(t, plan) || (MEASURE_NOUNS.has(t.stem) && measured(plan))) return;
    // "voters watch TV news ...", "do they use coupons": a verb after its subject, before the column it acts on.
    const object = p.spans.find((s) => s.start === i + 1);
    const subject = p.tokens[i - 1];
    if (object?.kind === 'column' && object.cols.some((c) => f.columns.has(c.column)) && t.stem === t.norm
      && (p.spans.some((s) => s.kind === 'table' && s.end === i) || /^(they|we|you|people|do|does|did|to|who|that|which)$/.test(subject?.norm ?? ''))) return;
    // "how long did ... last": the length asked of the measured column.
    if (t.norm === 'long' && p.tokens[i - 1]?.norm === 'how' && (measured(plan) || (plan.kind === 'rows' && (plan.show?.length ?? 0) > 0))) return;
    // "one of the languages": a number word that is only a word here.
    if (t.kind === 'number' && /^[a-z]+$/.test(t.norm) && STOP_WORDS.has(t.norm)) return;
    if (t.kind === 'number' || t.kind === 'date') unusedCues.push(i);
    else unknown.push(i);
  });
  return {
    explained, unusedNames: unusedNames.filter((i) => !explained.has(i)), unusedCues: [...new Set(unusedCues)].filter((i) => !explained.has(i)), unknown,
    invented: inventedCount(plan, p) ? ['a count of rows'] : [],
  };
}

/**
 * "and in 1986?" read alone: nothing is counted or measured, yet a plan of row counts would answer
 * with a number. A count needs "how many"/"number of", a thing counted (a table or row noun), a
 * grouping or a share.
 */
function inventedCount(plan: Plan, p: Parse): boolean {
  if (plan.kind !== 'aggregate' || plan.dims.length > 0 || plan.perBucket !== undefined || plan.share === true || plan.shareOfFiltered === true) return false;
  if (!plan.measures.every((m) => m.agg === 'count' && m.col === undefined)) return false;
  return !p.cues.some((c) => c.kind === 'count' || (c.kind === 'agg' && c.agg === 'count') || c.kind === 'share') && !p.spans.some((s) => s.kind === 'table');
}

/** The words of the question at `indices`, as written. */
export function wordsAt(p: Parse, indices: readonly number[]): string[] {
  return [...new Set(indices)].sort((a, b) => a - b).map((i) => p.tokens[i]?.raw ?? '').filter((w) => w !== '');
}
