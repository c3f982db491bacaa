/**
 * Follow-up questions built from the schema and the answer just given (another grouping, a recent
 * year, a time view, a filter on a real value, a distribution, a data-quality check), each one a
 * plan written by the grammar's writer, so a chip reads as a plain question and asking it gives
 * exactly the plan it names. Chips are whole questions: clicking one under an earlier turn still
 * means what it says.
 */
import { mdText } from '../../shared/markdownText';
import { dateColumnOf, defaultAgg, isGroupable, isIdLike, isNumeric, timeNamed } from './shape';
import type { AggregatePlan, ColRef, ColumnMeta, Grain, Plan, TableMeta } from './types';
import { writePlan } from './writer';

interface Picks {
  table: TableMeta;
  measure?: ColRef;
  categories: ColRef[];
  date?: ColRef;
}

function picks(table: TableMeta): Picks {
  const numeric = table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && c.nonNull > 0 && !timeNamed(c) && c.derived === undefined);
  const measure = numeric.find((c) => /(revenue|sales|amount|total|value|income|spend)/i.test(c.name)) ?? numeric[0];
  const categories = table.columns.filter((c) => c.kind === 'text' && isGroupable(c) && c.distinct >= 2 && c.distinct <= 50 && (c.values?.length ?? 0) > 0).map((column) => ({ table, column }));
  const out: Picks = { table, categories };
  if (measure !== undefined) out.measure = { table, column: measure };
  const date = dateColumnOf(table);
  if (date !== undefined) out.date = date;
  return out;
}

/** A value worth filtering on: the first that reads as a word. */
function sampleValue(c: ColumnMeta): string | undefined {
  return c.values?.find((x) => /^[\p{L}][\p{L}\p{N} &'-]{1,30}$/u.test(x) && !(c.nullMarkers ?? []).includes(x) && !(c.totals ?? []).includes(x));
}

const aggregate = (p: Picks, extra: Partial<AggregatePlan>): AggregatePlan => ({
  kind: 'aggregate', base: p.table, measures: p.measure !== undefined ? [{ agg: defaultAgg(p.measure.column), col: p.measure }] : [{ agg: 'count' }], dims: [], filters: [], chart: 'auto', ...extra,
});

/** Months, unless the dates are made of a year (and a quarter) alone: "by month" would be one bucket a year. */
const coarsest = (parts: Grain | undefined): Grain => (parts === 'year' || parts === 'quarter' ? parts : 'month');

/** Suggestions for after `plan` (or for a fresh start when undefined): at most three, all different. */
export function suggestQuestions(tables: readonly TableMeta[], plan?: Plan): string[] {
  return suggestPlans(tables, plan).map((s) => s.question);
}

/** The suggestions with the plans they were written from (a chip must read back as its plan). */
export function suggestPlans(tables: readonly TableMeta[], plan?: Plan): Array<{ question: string; plan: Plan }> {
  const main = plan?.kind === 'aggregate' ? plan.base : plan !== undefined && 'table' in plan ? plan.table : [...tables].sort((a, b) => b.rowCount - a.rowCount)[0];
  if (main === undefined) return [];
  const pk = picks(main);
  const planMeasure = plan?.kind === 'aggregate' ? plan.measures.find((m) => m.col !== undefined && m.col.table === main && m.agg !== 'count' && m.agg !== 'count_distinct')?.col : undefined;
  if (planMeasure !== undefined) pk.measure = planMeasure;
  const plans: Plan[] = [];
  // (A column the plan fixes to one value splits nothing: "by region where region is Asia".)
  const used = plan?.kind === 'aggregate' ? [...plan.dims.map((d) => d.col.column), ...plan.filters.filter((f) => f.kind === 'in' && !f.negate && f.values.length === 1).map((f) => f.col.column)] : [];
  const other = pk.categories.find((c) => !used.includes(c.column));
  if (plan?.kind === 'aggregate' && plan.dims.length > 0 && plan.limit === undefined) {
    if (other !== undefined && plan.dims.length < 3) plans.push({ ...plan, dims: [...plan.dims, { col: other }] });
    const year = typeof pk.date?.column.max === 'string' ? Number(pk.date.column.max.slice(0, 4)) : undefined;
    const dated = plan.filters.some((f) => f.kind === 'dateRange' || f.kind === 'datePart' || f.kind === 'periods');
    if (year !== undefined && pk.date !== undefined && !dated) plans.push({ ...plan, filters: [...plan.filters, { kind: 'dateRange', col: pk.date, from: `${year}-01-01`, to: `${year + 1}-01-01`, label: String(year) }] });
    // A value of a column the plan does not already condition ("Asia" and then "Africa" would match nothing).
    // (Nor a value of a second category beside one already chosen: Argentina is in no Asia row.)
    const cat = plan.filters.some((f) => f.kind === 'in' && !f.negate) ? undefined : pk.categories.find((c) => !plan.filters.some((f) => f.col.column === c.column));
    const v = cat !== undefined ? sampleValue(cat.column) : undefined;
    if (cat !== undefined && v !== undefined && plan.dims.some((d) => d.grain !== undefined)) plans.push({ ...plan, filters: [...plan.filters, { kind: 'in', col: cat, values: [v], negate: false }] });
  }
  if (pk.date !== undefined && !(plan?.kind === 'aggregate' && plan.dims.some((d) => d.grain !== undefined))) plans.push(aggregate(pk, { dims: [{ col: pk.date, grain: coarsest(pk.date.column.partsGrain) }] }));
  const cat = pk.categories.find((c) => !(plan?.kind === 'aggregate' && plan.dims.some((d) => d.col.column === c.column)));
  if (cat !== undefined) plans.push(aggregate(pk, { dims: [{ col: cat }], order: 'desc' }));
  if (pk.measure !== undefined && plan?.kind !== 'histogram') plans.push({ kind: 'histogram', col: pk.measure, filters: [], chart: 'auto' });
  if (pk.measure !== undefined && plan?.kind !== 'outliers') plans.push({ kind: 'outliers', table: main, cols: [pk.measure], filters: [], chart: 'auto' });
  plans.push({ kind: 'missing', table: main, chart: 'auto' });
  const out: Array<{ question: string; plan: Plan }> = [];
  for (const p of plans) {
    const q = writePlan(p, tables);
    if (q !== undefined && !out.some((x) => x.question === q)) out.push({ question: q, plan: p });
  }
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
