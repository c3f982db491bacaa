/**
 * Plans written as questions, with the grammar's own words: the reading line ("Read the question
 * as: total `revenue` by `region` and by month of `order_date`"), the follow-up chips, the options
 * of a clarification. Columns are written in backticks and values in quotes, so the sentence links
 * exactly, and reading it back gives the same plan (a test checks every sentence written). Date
 * ranges are written with their last day ("from 2023-01-01 to 2023-12-31"), as people say them.
 */
import type { AggregatePlan, ColRef, Dim, Filter, Grain, Measure, Plan, TableMeta } from './types';
import pluralize from 'pluralize';
import { dateColumnOf, frequencyWeight } from './shape';

const tick = (name: string): string => `\`${name.replace(/`/g, "'")}\``;
const quote = (value: string): string => `"${value.replace(/"/g, "'")}"`;
const col = (c: ColRef): string => (c.column.ratio === true ? (c.column.derived ?? []).map(tick).join(' per ') : tick(c.column.name));
const num = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12))));

/** The aggregates the grammar has words for (also the model's plan schema: see model/planSchema.ts). */
export const AGG: Record<Measure['agg'], string> = { count: 'number of rows', count_distinct: 'number of distinct', sum: 'total', avg: 'average', median: 'median', min: 'minimum', max: 'maximum' };

export function writeMeasure(m: Measure): string | undefined {
  if (m.agg === 'count' || m.col === undefined) return 'number of rows';
  if (m.agg === 'count_distinct' && m.grain !== undefined) {
    return m.col.column === dateColumnOf(m.col.table)?.column ? `number of ${m.grain === 'day' ? 'days' : `${m.grain}s`}` : undefined;
  }
  return `${AGG[m.agg]} ${col(m.col)}`;
}

/** The time buckets the grammar has words for. */
export const GRAIN: Record<Grain, string> = {
  hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year', decade: 'decade',
  weekday: 'day of week', hourOfDay: 'hour of day', monthOfYear: 'month of year', quarterOfYear: 'quarter of year',
};

export function writeDim(d: Dim): string {
  return d.grain !== undefined ? `${GRAIN[d.grain]} of ${col(d.col)}` : col(d.col);
}

function dayBefore(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A half-open day range as people write it: a year, a month, or first and last day. */
function writeRange(from: string | undefined, to: string | undefined): string | undefined {
  if (from !== undefined && to !== undefined) {
    const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
    const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
    if (fm === 1 && fd === 1 && tm === 1 && td === 1) return ty - fy === 1 ? `in ${fy}` : `from ${fy} to ${ty - 1}`;
    if (fd === 1 && td === 1 && (ty - fy) * 12 + tm - fm === 1) return `in ${from.slice(0, 7)}`;
    if (fd === 1 && td === 1 && (fm - 1) % 3 === 0 && (ty - fy) * 12 + tm - fm === 3) return `in Q${(fm + 2) / 3} ${fy}`;
    return `from ${from} to ${dayBefore(to)}`;
  }
  if (from !== undefined) return `since ${from}`;
  if (to !== undefined) return `before ${to}`;
  return undefined;
}

const MONTHS = Array.from({ length: 12 }, (_, k) => new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, k, 1))));
const DAYS = Array.from({ length: 7 }, (_, k) => new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, k + 1))));

/** A filter as words (undefined when the grammar has no words for it on this column). */
export function writeFilter(f: Filter, main: ColRef | undefined): string | undefined {
  const c = col(f.col);
  const onMain = main !== undefined && f.col.column === main.column;
  switch (f.kind) {
    case 'in':
      // Numbers of a numeric column are written as numbers ("`Status` = 0 or 2"), as the grammar reads them.
      if (f.col.column.kind === 'numeric' && !f.negate && f.values.every((v) => /^-?\d+(\.\d+)?$/.test(v))) return `where ${c} = ${f.values.map((v) => num(Number(v))).join(' or ')}`;
      return `where ${c} is ${f.negate ? 'not ' : ''}${f.values.map(quote).join(' or ')}`;
    case 'contains':
      return `where ${c} ${f.negate ? 'does not contain' : 'contains'} ${f.texts.map(quote).join(' or ')}`;
    case 'cmp':
      return `where ${c} ${f.op} ${num(f.value)}`;
    case 'between':
      return `where ${c} between ${num(f.lo)} and ${num(f.hi)}`;
    case 'dateRange': {
      // Another date than the table's main one is named before its time ("`last_review` in 2024").
      const r = writeRange(f.from, f.to);
      return r === undefined ? undefined : onMain ? r : `${c} ${r}`;
    }
    case 'periods':
      return `${onMain ? '' : `${c} `}in ${f.ranges.map((r) => (writeRange(r.from, r.to) ?? '').replace(/^in /, '')).join(' and ')}`;
    case 'datePart':
      if (!onMain) return undefined;
      if (f.part === 'year') return `in ${f.values.join(' and ')}`;
      if (f.part === 'month') return `in ${f.values.map((m) => MONTHS[m - 1]).join(' and ')}`;
      if (f.part === 'quarter') return `in ${f.values.map((q) => `Q${q}`).join(' and ')}`;
      return f.values.length === 2 && f.values.includes(6) && f.values.includes(7) ? 'on weekends' : `on ${f.values.map((d) => `${DAYS[d - 1]}s`).join(' and ')}`;
    case 'none':
      return `with no ${c}`;
    case 'null':
      return f.isNull ? `where ${c} is missing` : `with known ${c}`;
    case 'bool':
      return f.value ? `with ${c}` : `not ${c}`;
    case 'absentIn':
      return undefined;
  }
}

function writeFilters(fs: readonly Filter[], main: ColRef | undefined): string | undefined {
  const out: string[] = [];
  for (const f of fs) {
    const w = writeFilter(f, main);
    if (w === undefined) return undefined;
    out.push(w);
  }
  return out.join(' and ');
}

function joinDefined(a: string | undefined, b: string | undefined, f: (a: string, b: string) => string): string | undefined {
  return a === undefined || b === undefined ? undefined : f(a, b);
}

function writeAggregate(p: AggregatePlan, among: readonly TableMeta[]): string | undefined {
  const weight = frequencyWeight(p.base);
  // Rows of the base counted under another table's grouping ("number of orders by `country`"): named by the base's noun.
  const elsewhere = p.dims.some((d) => d.col.table !== p.base) || p.filters.some((f) => f.col.table !== p.base) || !firstOf(among, p.base);
  const noun = p.base.tokens[p.base.tokens.length - 1];
  const rows = elsewhere && noun !== undefined && /^[a-z]{3,}$/.test(noun) ? `number of ${pluralize(noun)}` : 'number of rows';
  const ms = p.measures.map((m) => (m.agg === 'sum' && m.col?.column === weight?.column ? `total ${col(m.col as ColRef)}` : m.agg === 'count' ? rows : writeMeasure(m)));
  if (ms.some((m) => m === undefined)) return undefined;
  const main = dateColumnOf(p.base);
  // A share of a part of the rows: the part's conditions, then the whole's after "among".
  const scope = p.shareScope;
  const where = scope === undefined ? writeFilters(p.filters, main)
    : joinDefined(writeFilters(p.filters.filter((_, i) => !scope.includes(i)), main), writeFilters(p.filters.filter((_, i) => scope.includes(i)), main), (a, b) => `${a} among rows ${b}`);
  if (where === undefined) return undefined;
  if (p.perBucket !== undefined) {
    const m = p.measures[0];
    const adj = { hour: 'hourly', day: 'daily', week: 'weekly', month: 'monthly', quarter: 'quarterly', year: 'yearly' }[p.perBucket.grain as string];
    return m?.col === undefined || adj === undefined || p.perBucket.col.column !== main?.column ? undefined : [`average ${adj} total of ${col(m.col)}`, where].filter((x) => x !== '').join(' ');
  }
  const parts: string[] = [];
  const dims = p.dims.map(writeDim);
  const first = ms[0] as string;
  if (p.limit === 1 && p.dims.length === 1 && p.order !== undefined) {
    parts.push(`which ${dims[0]} has the ${p.order === 'asc' ? 'lowest' : 'highest'} ${first}`, ...ms.slice(1).map((m) => `and ${m}`));
  } else if (p.limit !== undefined && p.order !== undefined) {
    parts.push(`${p.order === 'asc' ? 'bottom' : 'top'} ${p.limit}`, `by ${first}`, ...ms.slice(1).map((m) => `and ${m}`));
    if (dims.length > 0) parts.push(`by ${dims.join(' and ')}`);
  } else {
    parts.push((p.share === true ? 'share of ' : '') + ms.join(' and '));
    if (dims.length > 0 && p.shareOfFiltered !== true) parts.push(`by ${dims.join(' and ')}`);
    if (p.order === 'asc' && p.dims.some((d) => d.grain === undefined)) parts.push('lowest first');
  }
  if (p.contrast !== undefined) parts.unshift(p.contrast.kind === 'ratio' ? 'ratio of' : 'difference in');
  if (p.shareOfFiltered === true) parts.unshift('share of');
  // "number of rows" alone names nothing: the file whose rows are counted is said.
  if (!parts.some((x) => x.includes('`')) && where === '' && p.dims.length === 0) parts.push(`of ${tick(p.base.label)}`);
  if (where !== '') parts.push(where);
  if (p.shareOfFiltered === true && dims.length > 0) parts.push(`within each ${dims.join(' and ')}`);
  if (p.chart === 'none') parts.push('as a table');
  else if (p.chart === 'line' || p.chart === 'bar') parts.push(`as a ${p.chart} chart`);
  return parts.join(' ');
}

/**
 * Whether `t` is the table a question about rows means when it names none: the only one, or the
 * largest (the reader's choice). Another table's rows are named by its noun ("number of customers").
 */
function firstOf(among: readonly TableMeta[], t: TableMeta): boolean {
  return among.length <= 1 || [...among].sort((a, b) => b.rowCount - a.rowCount)[0] === t;
}

/**
 * A plan as a question the engine answers exactly that way, or undefined when it has no words for
 * it. `among`: the tables the question is asked of, when there are several.
 */
export function writePlan(plan: Plan, among: readonly TableMeta[] = []): string | undefined {
  switch (plan.kind) {
    case 'aggregate':
      return writeAggregate(plan, among);
    case 'rows': {
      const where = writeFilters(plan.filters, dateColumnOf(plan.table));
      if (where === undefined) return undefined;
      const show = plan.show?.length === 1 ? `${col(plan.show[0] as ColRef)} of ` : plan.show !== undefined && plan.show.length > 1 ? undefined : '';
      if (show === undefined) return undefined;
      const head = plan.orderBy === undefined ? (plan.limit === 20 ? `${show}rows` : `${show}first ${plan.limit} rows`)
        : plan.limit === 1 ? `${show}the row with the ${plan.orderBy.dir === 'asc' ? 'lowest' : 'highest'} ${col(plan.orderBy.col)}`
          : `${show}${plan.orderBy.dir === 'asc' ? 'bottom' : 'top'} ${plan.limit} rows by ${col(plan.orderBy.col)}`;
      return [head, where].filter((x) => x !== '').join(' ');
    }
    case 'histogram': {
      const where = writeFilters(plan.filters, dateColumnOf(plan.col.table));
      return where === undefined ? undefined : [`distribution of ${col(plan.col)}`, where].filter((x) => x !== '').join(' ');
    }
    case 'correlation': {
      const where = writeFilters(plan.filters, dateColumnOf(plan.x.table));
      return where === undefined ? undefined : [`correlation between ${col(plan.x)} and ${col(plan.y)}`, where].filter((x) => x !== '').join(' ');
    }
    case 'correlationScan':
      return plan.filters.length > 0 ? undefined : `what correlates with ${col(plan.target)}`;
    case 'missing': {
      const noun = plan.table.tokens[plan.table.tokens.length - 1];
      const of = !firstOf(among, plan.table) && noun !== undefined && /^[a-z]{3,}$/.test(noun) ? ` of ${pluralize(noun)}` : '';
      return plan.col !== undefined ? `missing values of ${col(plan.col)}` : `missing values${of}`;
    }
    case 'duplicates':
      return plan.cols.length > 0 ? `duplicates of ${plan.cols.map(col).join(' and ')}` : 'duplicate rows';
    case 'outliers':
      return plan.filters.length > 0 ? undefined : `outliers of ${plan.cols.map(col).join(' and ')}`;
    case 'overview':
      return 'overview';
  }
}
