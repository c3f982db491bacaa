/**
 * The first line of every answer: how the question was read, in plain words with the columns it
 * used, so a misreading is visible before any number ("Counting rows of `trips.csv` where `mode`
 * is bike: **114**").
 */
import { formatNumber } from '../profile/profileSummary';
import { code, fmtValue, grainWords, md } from './describe';
import { markersNote } from './missingMarkers';
import { isScope } from './sqlBuilder';
import type { ResultData } from './narrative';
import type { Filter, Measure, Plan } from './types';

const OP_WORD: Record<string, string> = { '>': 'above', '>=': 'at least', '<': 'below', '<=': 'at most', '=': '', '<>': 'not' };

function filterWords(f: Filter): string {
  const c = code(f.col.column.name);
  const vals = (vs: readonly string[]): string => vs.slice(0, 4).map((v) => md(v)).join(' or ') + (vs.length > 4 ? ` (+${vs.length - 4})` : '');
  switch (f.kind) {
    case 'in':
      return `${c} is ${f.negate ? 'not ' : ''}${vals(f.values)}`;
    case 'contains':
      return `${c} ${f.negate ? 'does not contain' : 'contains'} ${f.texts.map((t) => `"${md(t)}"`).join(' or ')}`;
    case 'cmp':
      return `${c} is ${OP_WORD[f.op] ?? f.op}${OP_WORD[f.op] ? ' ' : ''}${formatNumber(f.value)}`.replace('is  ', 'is ');
    case 'between':
      return `${c} is between ${formatNumber(f.lo)} and ${formatNumber(f.hi)}`;
    case 'dateRange':
      return /^(since|after|before|up to)\b/.test(f.label) ? `${c} is ${md(f.label)}` : `${c} is in ${md(f.label)}`;
    case 'datePart':
      return `${c} is in ${md(f.label)}${f.part === 'year' ? '' : ' (any year)'}`;
    case 'none':
      return f.col.column.kind === 'numeric' ? `${c} is zero or missing` : `${c} is missing`;
    case 'null':
      return f.isNull ? `${c} is missing${markersNote(f.col.column)}` : `${c} is present${markersNote(f.col.column)}`;
    case 'bool':
      return f.value ? `${c} is true` : `${c} is false`;
    case 'absentIn':
      return `${c} does not appear in ${code(f.other.label)}`;
  }
}

const where = (fs: readonly Filter[]): string => (fs.length > 0 ? ` where ${fs.map(filterWords).join(' and ')}` : '');

function measureWords(m: Measure, table: string): string {
  const c = m.col !== undefined ? code(m.col.column.name) : '';
  switch (m.agg) {
    case 'count':
      return `Counting rows of ${code(table)}`;
    case 'count_distinct':
      return m.grain !== undefined ? `Counting the ${m.grain === 'day' ? 'days' : `${m.grain}s`} of ${c}` : `Counting distinct values of ${c}`;
    case 'sum':
      return `The total of ${c}`;
    case 'avg':
      return `The average of ${c}`;
    case 'median':
      return `The median of ${c}`;
    case 'min':
      return `The lowest ${c}`;
    case 'max':
      return `The highest ${c}`;
  }
}

/** The reading in words, without the result. */
export function readingSentence(plan: Plan): string {
  switch (plan.kind) {
    case 'aggregate': {
      const ms = plan.measures.map((m) => measureWords(m, plan.base.label));
      const head = ms.length <= 1 ? ms[0] ?? '' : `${ms[0]}, and ${ms.slice(1).map((x) => x.charAt(0).toLowerCase() + x.slice(1)).join(', and ')}`;
      if (plan.shareOfFiltered) {
        const scope = plan.filters.filter((f, i) => isScope(f, i, plan));
        return `The share of rows of ${code(plan.base.label)}${where(plan.filters.filter((f, i) => !isScope(f, i, plan)))}${scope.length > 0 ? `, among rows${where(scope)}` : ''}`;
      }
      if (plan.perBucket !== undefined) {
        const m = plan.measures[0];
        return `The average ${grainWords(plan.perBucket.grain)}ly total of ${m?.col !== undefined ? code(m.col.column.name) : 'rows'} (summed per ${grainWords(plan.perBucket.grain)} of ${code(plan.perBucket.col.column.name)}, then averaged)${where(plan.filters)}`.replace('dayly', 'daily');
      }
      const by = plan.dims.length > 0 ? ` per ${plan.dims.map((d) => (d.grain !== undefined ? `${grainWords(d.grain)} of ${code(d.col.column.name)}` : code(d.col.column.name))).join(' and ')}` : '';
      const rank = plan.limit !== undefined ? `, ${plan.order === 'asc' ? 'lowest' : 'highest'} ${plan.limit === 1 ? '' : `${plan.limit} `}first`.replace('  ', ' ') : plan.order !== undefined && plan.dims.length > 0 ? `, ${plan.order === 'asc' ? 'lowest' : 'highest'} first` : '';
      const share = plan.share ? ', with each one\'s share of the total' : '';
      return `${head}${by}${where(plan.filters)}${share}${rank}`;
    }
    case 'rows': {
      const order = plan.orderBy ? ` with the ${plan.orderBy.dir === 'asc' ? 'lowest' : 'highest'} ${code(plan.orderBy.col.column.name)}` : '';
      const show = plan.show !== undefined && plan.show.length > 0 ? `, showing ${plan.show.map((c) => code(c.column.name)).join(' and ')}` : '';
      return `${plan.limit === 1 && plan.orderBy ? 'The row' : 'Rows'} of ${code(plan.table.label)}${order}${where(plan.filters)}${show}`;
    }
    case 'histogram':
      return `The distribution of ${code(plan.col.column.name)}${where(plan.filters)}`;
    case 'correlation':
      return `The correlation between ${code(plan.x.column.name)} and ${code(plan.y.column.name)}${where(plan.filters)}`;
    case 'correlationScan':
      return `The correlation of ${code(plan.target.column.name)} with the other numeric columns${where(plan.filters)}`;
    case 'missing':
      return plan.col ? `Missing values of ${code(plan.col.column.name)} in ${code(plan.table.label)}` : `Missing values per column of ${code(plan.table.label)}`;
    case 'duplicates':
      return plan.cols.length > 0 ? `Repeated values of ${plan.cols.map((c) => code(c.column.name)).join(', ')} in ${code(plan.table.label)}` : `Duplicate rows of ${code(plan.table.label)}`;
    case 'outliers':
      return `Outliers of ${plan.cols.map((c) => code(c.column.name)).join(', ')} in ${code(plan.table.label)}${where(plan.filters)}`;
    case 'overview':
      return `An overview of ${plan.tables.map((t) => code(t.label)).join(' and ')}`;
  }
}

/** The first line: the reading, with the number when the answer is one number. */
export function readingLine(plan: Plan, r: ResultData): string {
  const s = readingSentence(plan);
  if (plan.kind === 'aggregate' && plan.dims.length === 0 && !plan.shareOfFiltered && plan.measures.length === 1 && r.rows.length === 1) {
    const v = r.rows[0]?.[0];
    return v === null || v === undefined ? `${s}: no rows match, so there is no value.` : `${s}: **${fmtValue(v)}**`;
  }
  if (plan.kind === 'correlation') {
    const v = r.rows[0]?.[0];
    return typeof v === 'number' ? `${s}: **r = ${v.toFixed(2)}**` : `${s}.`;
  }
  return `${s}:`;
}
