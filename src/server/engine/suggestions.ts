/**
 * Three follow-up questions built from the schema and the answer just given: another grouping, a
 * time view, a filter on a real value, a data-quality check. Each is phrased so the engine itself
 * answers it (the tests ask every suggestion back).
 */
import { mdText } from '../../shared/markdownText';
import { isGroupable, isIdLike, isNumeric } from './roles';
import { defaultAgg, MONEY_WORDS } from './lexicon';
import { canonicalQuestion } from './rephrase';
import type { ColumnMeta, Filter, Plan, TableMeta } from './types';

interface Picks {
  table: TableMeta;
  measure?: ColumnMeta;
  categories: ColumnMeta[];
  date?: ColumnMeta;
}

function picks(table: TableMeta): Picks {
  const numeric = table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && c.nonNull > 0 && !/(^|_)(id|key|code|year|month)$/i.test(c.name));
  const measure = numeric.find((c) => /(revenue|sales|amount|total|value|income|spend)/i.test(c.name)) ?? numeric.find((c) => MONEY_WORDS.test(c.name)) ?? numeric[0];
  const categories = table.columns.filter((c) => c.kind === 'text' && isGroupable(c) && c.distinct >= 2 && c.distinct <= 50 && (c.values?.length ?? 0) > 0);
  const date = table.columns.find((c) => c.kind === 'temporal' && c.nonNull > 0);
  const out: Picks = { table, categories };
  if (measure) out.measure = measure;
  if (date) out.date = date;
  return out;
}

/** Most common-looking value to filter on: the first indexed value, or undefined. */
function sampleValue(c: ColumnMeta): string | undefined {
  const v = c.values?.find((x) => /^[\p{L}][\p{L}\p{N} &'-]{1,30}$/u.test(x));
  return v;
}

function latestYear(date: ColumnMeta | undefined): string | undefined {
  return typeof date?.max === 'string' ? date.max.slice(0, 4) : undefined;
}

/** Suggestions for after `plan` (or for a fresh start when undefined). */
export function suggestQuestions(tables: readonly TableMeta[], plan?: Plan): string[] {
  const out: string[] = [];
  const add = (q: string | undefined): void => {
    if (q !== undefined && !out.includes(q)) out.push(q);
  };
  const main = plan?.kind === 'aggregate' ? plan.base : plan && 'table' in plan ? plan.table : [...tables].sort((a, b) => b.rowCount - a.rowCount)[0];
  if (!main) return [];
  const pk = picks(main);
  const planMeasure = plan?.kind === 'aggregate' ? plan.measures.find((x) => x.col !== undefined && x.col.table === main && x.agg !== 'count' && x.agg !== 'count_distinct')?.col?.column : undefined;
  const measure = planMeasure ?? pk.measure;
  const m = measure?.name;
  const agg = measure ? (defaultAgg(measure) === 'avg' ? 'average' : 'total') : 'total';
  const [c1, c2] = pk.categories;
  const usedDims = plan?.kind === 'aggregate' ? plan.dims.map((d) => d.col.column) : [];
  const otherCat = pk.categories.find((c) => !usedDims.includes(c));
  const year = latestYear(pk.date);
  const filteredYear = plan && 'filters' in plan && plan.filters.some((f) => f.kind === 'dateRange' || f.kind === 'datePart');
  if (plan?.kind === 'aggregate' && plan.dims.length > 0) {
    // Refinements are spelled out whole: a chip stays under its own turn, and clicking it later
    // (after other questions) must still refine that turn, not the session's latest question.
    if (otherCat) add(canonicalQuestion({ ...plan, dims: [...plan.dims, { col: { table: main, column: otherCat } }] }));
    if (year && !filteredYear && pk.date) {
      const only: Filter = { kind: 'dateRange', col: { table: main, column: pk.date }, from: `${year}-01-01`, to: `${Number(year) + 1}-01-01`, label: year };
      add(canonicalQuestion({ ...plan, filters: [...plan.filters, only] }));
    }
    if (m && pk.date && !plan.dims.some((d) => d.grain !== undefined)) add(`How did ${agg} ${m} change per month?`);
    if (c1 && plan.dims.some((d) => d.grain !== undefined)) {
      const v = sampleValue(c1);
      if (v) add(canonicalQuestion({ ...plan, filters: [...plan.filters, { kind: 'in', col: { table: main, column: c1 }, values: [v], negate: false }] }));
    }
  }
  if (m && c1 && !(plan?.kind === 'aggregate' && plan.dims.some((d) => d.col.column === c1))) add(`${agg === 'total' ? 'Total' : 'Average'} ${m} by ${c1.name}`);
  if (m && pk.date && !(plan?.kind === 'aggregate' && plan.dims.some((d) => d.grain !== undefined)) && !out.some((q) => /per month/.test(q))) add(`Monthly trend of ${agg} ${m}`);
  if (m && plan?.kind !== 'histogram') add(`Distribution of ${m}`);
  if (m && c2) add(`Average ${m} by ${c2.name}`);
  const numerics = main.columns.filter((c) => isNumeric(c) && !isIdLike(c));
  const a = numerics[0];
  const b = numerics[1];
  if (a && b && plan?.kind !== 'correlation') add(`Is ${a.name} correlated with ${b.name}?`);
  if (m && plan?.kind !== 'outliers') add(`Are there outliers in ${m}?`);
  add('Which columns have missing values?');
  return out.slice(0, 3);
}

/** Column list for an "I cannot answer" reply: name, kind and a few values. */
export function describeColumns(table: TableMeta, max = 25): string {
  const lines = table.columns.slice(0, max).map((c) => {
    const kind = c.kind === 'numeric' ? 'number' : c.kind === 'temporal' ? 'date' : c.kind === 'boolean' ? 'yes/no' : c.kind === 'text' ? 'text' : c.type.toLowerCase();
    const vals = c.values && c.values.length > 0 && c.values.length <= 12 ? `: ${c.values.slice(0, 6).map(mdText).join(', ')}${c.values.length > 6 ? ', …' : ''}` : '';
    return `\`${c.name.replace(/`/g, "'")}\` (${kind}${vals})`;
  });
  const more = table.columns.length > max ? `, and ${table.columns.length - max} more` : '';
  return `${lines.join(', ')}${more}`;
}
