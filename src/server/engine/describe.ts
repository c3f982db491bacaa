/**
 * Plans in words: what is measured, how it is grouped and filtered. Used for step names, chart
 * titles and the finding, so the user can check the engine understood the question.
 */
import { mdText } from '../../shared/markdownText';
import { formatAs, formatNumber, type NumberStyle } from '../../shared/numberFormat';
import { markersNote } from './missingMarkers';
import type { Filter, Grain, Measure, Plan } from './types';

const AGG_WORD: Record<Measure['agg'], string> = {
  count: 'number of rows', count_distinct: 'number of distinct', sum: 'total', avg: 'average', median: 'median',
  min: 'minimum', max: 'maximum',
};

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A time bucket in words: "month of year", "hour of day", "quarter". */
export function grainWords(g: Grain): string {
  return g === 'hourOfDay' ? 'hour of day' : g === 'monthOfYear' ? 'month of year' : g === 'quarterOfYear' ? 'quarter of year' : g;
}

/** Buckets that repeat every day, week or year (Mondays, 3 p.m., March): not a time line. */
export function isCyclic(g: Grain | undefined): boolean {
  return g === 'weekday' || g === 'hourOfDay' || g === 'monthOfYear' || g === 'quarterOfYear';
}

/** "total revenue", "number of distinct customer_id", "number of orders". */
export function measurePhrase(m: Measure, rowNoun = 'rows', name: (column: string) => string = (c) => c): string {
  if (m.agg === 'count' || m.col === undefined) return `number of ${rowNoun}`;
  if (m.agg === 'count_distinct' && m.grain !== undefined) return `number of ${m.grain === 'day' ? 'days' : `${m.grain}s`} of ${name(m.col.column.name)}`;
  return `${AGG_WORD[m.agg]} ${name(m.col.column.name)}`;
}

const OP_WORD: Record<string, string> = { '>': 'above', '>=': 'at least', '<': 'below', '<=': 'at most', '=': 'equal to', '<>': 'not equal to' };

/** "region is Europe or Asia", "revenue above 500", "order_date in 2024". */
export function filterPhrase(f: Filter): string {
  const c = f.col.column.name;
  switch (f.kind) {
    case 'in': {
      const vs = f.values.length <= 3 ? f.values.join(' or ') : `${f.values.slice(0, 3).join(', ')} (+${f.values.length - 3})`;
      return f.negate ? `${c} is not ${vs}` : `${c} is ${vs}`;
    }
    case 'contains': {
      const ts = f.texts.map((t) => `"${t}"`).join(' or ');
      return f.negate ? `${c} does not contain ${ts}` : `${c} contains ${ts}`;
    }
    case 'cmp':
      return `${c} ${OP_WORD[f.op] ?? f.op} ${formatNumber(f.value)}`;
    case 'between':
      return `${c} between ${formatNumber(f.lo)} and ${formatNumber(f.hi)}`;
    case 'dateRange':
      return /^(since|after|before|up to)\b/.test(f.label) ? `${c} ${f.label}` : `${c} in ${f.label}`;
    case 'datePart':
      return f.part === 'year' ? `${c} in ${f.label}` : `${c} in ${f.label} (any year)`;
    case 'periods':
      return `${c} in ${f.label}`;
    case 'none':
      return f.col.column.kind === 'numeric' ? `${c} is zero or missing` : `${c} is missing`;
    case 'absentIn':
      return `${c} does not appear in ${f.other.label}`;
    case 'bool':
      return f.value ? `${c} is true` : `${c} is false`;
    case 'null':
      return f.isNull ? `${c} is missing${markersNote(f.col.column)}` : `${c} is present${markersNote(f.col.column)}`;
  }
}

/** The noun for a table's rows: orders.csv -> "orders". */
export function rowNoun(label: string): string {
  const base = label.replace(/\.[^.]+$/, '').replace(/[, ].*$/, '').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return base.length > 0 && base.length <= 30 && /s$/.test(base) ? base : 'rows';
}

/** One line saying what the plan computes. */
export function describePlan(plan: Plan): string {
  const where = (fs: readonly Filter[]): string => (fs.length > 0 ? `, where ${fs.map(filterPhrase).join(' and ')}` : '');
  switch (plan.kind) {
    case 'aggregate': {
      const noun = rowNoun(plan.base.label);
      const ms = plan.measures.map((m) => measurePhrase(m, noun)).join(' and ');
      const grainWord = grainWords;
      const by = plan.dims.length > 0 ? ` by ${plan.dims.map((d) => (d.grain ? `${grainWord(d.grain)} of ${d.col.column.name}` : d.col.column.name)).join(' and ')}` : '';
      const rank = plan.limit !== undefined ? `, ${plan.order === 'asc' ? 'bottom' : 'top'} ${plan.limit}` : '';
      const share = plan.share ? ' with each group\'s share of the total' : plan.shareOfFiltered ? (plan.dims.length > 0 ? ' (share of each group\'s rows)' : ' (share of all rows)') : '';
      return `${ms}${by}${share}${where(plan.filters)}${rank}`;
    }
    case 'rows': {
      const order = plan.orderBy ? `, ${plan.orderBy.dir === 'asc' ? 'lowest' : 'highest'} ${plan.orderBy.col.column.name} first` : '';
      return `rows of ${plan.table.label}${where(plan.filters)}${order} (up to ${plan.limit})`;
    }
    case 'histogram':
      return `distribution of ${plan.col.column.name}${where(plan.filters)}`;
    case 'correlation':
      return `correlation between ${plan.x.column.name} and ${plan.y.column.name}${where(plan.filters)}`;
    case 'correlationScan':
      return `correlation of ${plan.target.column.name} with the other numeric columns${where(plan.filters)}`;
    case 'missing':
      return plan.col ? `missing values of ${plan.col.column.name} in ${plan.table.label}` : `missing values per column of ${plan.table.label}`;
    case 'duplicates':
      return plan.cols.length > 0 ? `repeated values of ${plan.cols.map((c) => c.column.name).join(', ')} in ${plan.table.label}` : `duplicate rows of ${plan.table.label}`;
    case 'outliers':
      return `outliers of ${plan.cols.map((c) => c.column.name).join(', ')} in ${plan.table.label}${where(plan.filters)}`;
    case 'overview':
      return `overview of ${plan.tables.map((t) => t.label).join(' and ')}`;
  }
}

/** A value for prose: numbers formatted (as their column shows them, given its `style`), missing shown as such. */
export function fmtValue(v: unknown, style?: NumberStyle): string {
  if (v === null || v === undefined) return '(missing)';
  if (typeof v === 'number') return style ? formatAs(v, style) : formatNumber(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && v.length < 16) return style ? formatAs(Number(v), style) : formatNumber(Number(v));
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00$/.test(v)) return v.slice(0, 10);
  return String(v);
}

/**
 * A group's label: text as the data writes it (station "5054", zip "02134"), whole numbers without
 * thousands separators (the year 1960, not "1,960"); other numbers as {@link fmtValue} shows them.
 */
export function fmtLabel(v: unknown): string {
  if (typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}T00:00:00$/.test(v)) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return fmtValue(v);
}

/** Markdown-safe inline text (no emphasis, link, HTML or entity syntax from data values). */
export const md = mdText;

/** A column name as inline code (any backticks inside get a longer fence). */
export function code(name: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((x) => x.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${clean} ${fence}` : `${fence}${clean}${fence}`;
}

/** A time bucket as people write it: 2024-03 for months, 2024-Q1 for quarters, the date otherwise. */
export function timeLabel(v: unknown, grain: string | undefined): string {
  if (typeof v === 'number' && grain === 'decade') return `${v}s`;
  if (typeof v === 'number' && (grain === 'monthOfYear' || grain === 'quarterOfYear')) return grain === 'monthOfYear' ? (MONTH_NAMES[v - 1] ?? String(v)) : `Q${v}`;
  if (typeof v === 'number' && (grain === 'year' || grain === 'hourOfDay')) return grain === 'year' ? String(v) : `${String(v).padStart(2, '0')}:00`;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return fmtValue(v);
  if (grain === 'month') return v.slice(0, 7);
  if (grain === 'quarter') return `${v.slice(0, 4)}-Q${Math.floor((Number(v.slice(5, 7)) - 1) / 3) + 1}`;
  if (grain === 'hour') return v.slice(0, 16).replace('T', ' ');
  return v.slice(0, 10);
}
