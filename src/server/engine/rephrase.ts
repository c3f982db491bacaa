/**
 * A reading as a question the engine answers exactly, for the one-click alternatives offered when
 * a question can be read more than one way: the user's own words with the chosen columns written
 * in backticks ("average `load_max` by month"), or, when the readings differ otherwise, a plain
 * canonical question built from the plan. Backticked names and quoted values link exactly, so
 * asking an alternative gives the reading it describes (tested both ways).
 */
import { formatNumber } from '../profile/profileSummary';
import type { Reading } from './readings';
import type { Filter, Measure, Plan } from './types';

const tick = (name: string): string => `\`${name.replace(/`/g, "'")}\``;
const quote = (value: string): string => `"${value.replace(/"/g, "'")}"`;

/** The question with the columns this reading chose written out, or undefined if it chose nothing. */
export function rephrase(question: string, r: Reading): string | undefined {
  const p = r.parse;
  const edits: Array<{ from: number; to: number; text: string }> = [];
  for (const s of p.spans) {
    if (s.kind !== 'column' || s.cols.length !== 1) continue;
    const picked = r.choice.pick?.has(s.start) === true;
    const named = [...(r.choice.nameWins ?? [])].some((k) => k >= s.start && k < s.end);
    if (!picked && !named) continue;
    const first = p.tokens[s.start];
    const last = p.tokens[s.end - 1];
    if (first === undefined || last === undefined) continue;
    edits.push({ from: first.start, to: last.end, text: tick(s.cols[0]?.column.name ?? '') });
  }
  if (edits.length === 0) return undefined;
  let out = question;
  for (const e of edits.sort((a, b) => b.from - a.from)) out = `${out.slice(0, e.from)}${e.text}${out.slice(e.to)}`;
  return out;
}

const AGG_WORDS: Record<Measure['agg'], string> = {
  count: 'number of rows', count_distinct: 'number of distinct', sum: 'total', avg: 'average', median: 'median', min: 'minimum', max: 'maximum',
};

function measureWords(m: Measure): string {
  if (m.agg === 'count' || m.col === undefined) return 'number of rows';
  if (m.agg === 'count_distinct' && m.grain !== undefined) return `number of ${m.grain}s of ${tick(m.col.column.name)}`;
  return `${AGG_WORDS[m.agg]} ${tick(m.col.column.name)}`;
}

const OP: Record<string, string> = { '>': '>', '>=': '>=', '<': '<', '<=': '<=', '=': '=', '<>': '<>' };

function filterWords(f: Filter): string | undefined {
  const c = tick(f.col.column.name);
  switch (f.kind) {
    case 'in':
      return `${f.negate ? 'not ' : ''}${f.values.map(quote).join(' or ')}`;
    case 'contains':
      return `${c} ${f.negate ? 'not ' : ''}containing ${f.texts.map(quote).join(' or ')}`;
    case 'cmp':
      return `${c} ${OP[f.op] ?? '='} ${formatNumber(f.value).replace(/,/g, '')}`;
    case 'between':
      return `${c} between ${f.lo} and ${f.hi}`;
    case 'dateRange':
      return f.from !== undefined && f.to !== undefined ? `from ${f.from} to ${f.to}` : f.from !== undefined ? `since ${f.from}` : f.to !== undefined ? `before ${f.to}` : undefined;
    case 'none':
    case 'null':
      return `with no ${c}`;
    default:
      return undefined;
  }
}

/** "for region 'Asia'", but a date range reads on its own: "from 2024-01-01 to 2025-01-01". */
function whereClause(where: readonly string[]): string {
  const first = where[0] ?? '';
  return `${/^(from|since|before) /.test(first) ? '' : 'for '}${where.join(' and ')}`;
}

/** A plain question for an aggregate plan (undefined for shapes it cannot spell). */
export function canonicalQuestion(plan: Plan): string | undefined {
  if (plan.kind !== 'aggregate' || plan.share === true || plan.shareOfFiltered === true) return undefined;
  const m = plan.measures[0];
  if (plan.perBucket !== undefined) {
    if (m?.col === undefined) return undefined;
    const adj = plan.perBucket.grain === 'day' ? 'daily' : `${plan.perBucket.grain}ly`;
    const where = plan.filters.map(filterWords);
    if (where.some((w) => w === undefined)) return undefined;
    return `average ${adj} total of ${tick(m.col.column.name)}${where.length > 0 ? ` ${whereClause(where as string[])}` : ''}`;
  }
  const parts = [plan.measures.map(measureWords).join(' and ')];
  for (const d of plan.dims) parts.push(d.grain !== undefined ? `by ${d.grain} of ${tick(d.col.column.name)}` : `by ${tick(d.col.column.name)}`);
  const where = plan.filters.map(filterWords);
  if (where.some((w) => w === undefined)) return undefined;
  if (where.length > 0) parts.push(whereClause(where as string[]));
  if (plan.limit !== undefined) parts.unshift(`${plan.order === 'asc' ? 'bottom' : 'top'} ${plan.limit}`);
  return parts.join(' ');
}
