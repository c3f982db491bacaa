/**
 * A model's proposed plan made into one of the engine's plans, or the reason it cannot be: every
 * table, column and value it names must exist in the data, every aggregate must suit its column
 * (identifiers are never added up, text is never averaged), and every filter must suit its
 * column's type. Nothing of the model's text reaches SQL but through the engine's own quoting:
 * names are looked up, values become literals, numbers are numbers.
 */
import type { AggregatePlan, ColRef, ColumnMeta, Dim, Filter, Measure, Plan, RowsPlan, TableMeta } from '../engine/types';
import type { ModelFilter, ModelPlan } from './planSchema';
import { isIdLike } from '../engine/shape';

/** A reason the plan was not used, said to the user ("column `x` is not in sales.csv"). */
export class PlanRejected extends Error {}

/** Finds a value of a text column as stored (case aside); undefined when no row has it. */
export type ValueLookup = (col: ColRef, value: string) => Promise<string | undefined>;

const fold = (s: string): string => s.normalize('NFKC').trim().toLowerCase();
const tick = (s: string): string => `"${s.replace(/"/g, "'").slice(0, 80)}"`;

function tableOf(p: ModelPlan, tables: readonly TableMeta[]): TableMeta {
  if (p.table === undefined) {
    if (tables.length === 1 && tables[0] !== undefined) return tables[0];
    throw new PlanRejected('it named no table, and there are several');
  }
  const want = fold(p.table);
  const hit = tables.find((t) => fold(t.label) === want) ?? tables.find((t) => fold(t.alias) === want) ?? tables.find((t) => fold(t.source.fileName) === want);
  if (hit === undefined) throw new PlanRejected(`there is no table "${p.table.slice(0, 80)}"`);
  return hit;
}

/** A column of the base table, else of another (the engine joins them), by exact name or case aside. */
function columnOf(name: string, base: TableMeta, tables: readonly TableMeta[]): ColRef {
  const ordered = [base, ...tables.filter((t) => t !== base)];
  for (const eq of [(a: string, b: string) => a === b, (a: string, b: string) => fold(a) === fold(b)]) {
    for (const t of ordered) {
      const c = t.columns.find((x) => eq(x.name, name));
      if (c !== undefined) return { table: t, column: c };
    }
  }
  throw new PlanRejected(`column "${name.slice(0, 80)}" is not in ${base.label}`);
}

function measureOf(m: { agg: Measure['agg']; column?: string | undefined }, base: TableMeta, tables: readonly TableMeta[]): Measure {
  if (m.agg === 'count' || m.column === undefined) {
    if (m.agg !== 'count') throw new PlanRejected(`${m.agg} needs a column`);
    return { agg: 'count' };
  }
  const col = columnOf(m.column, base, tables);
  const c = col.column;
  if (m.agg === 'sum' || m.agg === 'avg' || m.agg === 'median') {
    if (c.kind !== 'numeric') throw new PlanRejected(`${tick(c.name)} holds ${c.kind === 'temporal' ? 'dates' : 'text'}, which cannot be ${m.agg === 'sum' ? 'added up' : 'averaged'}`);
    if (isIdLike(c)) throw new PlanRejected(`${tick(c.name)} is an identifier, which is never ${m.agg === 'sum' ? 'added up' : 'averaged'}`);
  }
  if ((m.agg === 'min' || m.agg === 'max') && c.kind !== 'numeric' && c.kind !== 'temporal') throw new PlanRejected(`${tick(c.name)} holds text, which has no ${m.agg === 'min' ? 'minimum' : 'maximum'}`);
  return { agg: m.agg, col };
}

function dimOf(g: { column: string; grain?: Dim['grain'] | undefined }, base: TableMeta, tables: readonly TableMeta[]): Dim {
  const col = columnOf(g.column, base, tables);
  if (g.grain === undefined) return { col };
  if (col.column.kind !== 'temporal') throw new PlanRejected(`${tick(col.column.name)} holds no dates to group by ${g.grain}`);
  return { col, grain: g.grain };
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) throw new PlanRejected(`"${iso}" is not a date`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function numbers(f: ModelFilter, count: number, c: ColumnMeta): number[] {
  const vs = (f.values ?? []).map((v) => (typeof v === 'number' ? v : Number(v)));
  if (vs.length !== count || vs.some((v) => !Number.isFinite(v))) throw new PlanRejected(`"${f.op}" on ${tick(c.name)} needs ${count === 1 ? 'one number' : 'two numbers'}`);
  if (c.kind !== 'numeric') throw new PlanRejected(`${tick(c.name)} holds no numbers to compare`);
  return vs;
}

async function valuesOf(f: ModelFilter, col: ColRef, lookup: ValueLookup): Promise<string[]> {
  const raw = (f.values ?? []).map((v) => String(v));
  if (raw.length === 0) throw new PlanRejected(`"${f.op}" on ${tick(col.column.name)} needs values`);
  const out: string[] = [];
  for (const v of raw) {
    const listed = col.column.values;
    const known = listed?.find((x) => x === v) ?? listed?.find((x) => fold(x) === fold(v));
    // A column whose values are all listed is answered from the list; others are asked of the data.
    const found = known ?? (listed === undefined || listed.length < col.column.distinct ? await lookup(col, v) : undefined);
    if (found === undefined) throw new PlanRejected(`no row of ${tick(col.column.name)} is "${v.slice(0, 80)}"`);
    out.push(found);
  }
  return out;
}

async function filterOf(f: ModelFilter, base: TableMeta, tables: readonly TableMeta[], lookup: ValueLookup): Promise<Filter> {
  const col = columnOf(f.column, base, tables);
  const c = col.column;
  switch (f.op) {
    case 'is':
    case 'is not':
      if (c.kind === 'numeric') {
        const vs = (f.values ?? []).map(Number);
        if (vs.length === 0 || vs.some((v) => !Number.isFinite(v))) throw new PlanRejected(`${tick(c.name)} holds numbers`);
        return { kind: 'in', col, values: vs.map(String), negate: f.op === 'is not' };
      }
      if (c.kind === 'boolean') return { kind: 'bool', col, value: (f.values ?? []).map(String).some((v) => /^(true|yes|1)$/i.test(v)) !== (f.op === 'is not') };
      return { kind: 'in', col, values: await valuesOf(f, col, lookup), negate: f.op === 'is not' };
    case 'contains':
    case 'does not contain': {
      if (c.kind !== 'text') throw new PlanRejected(`${tick(c.name)} holds no text to search`);
      const texts = (f.values ?? []).map(String).filter((v) => v.trim() !== '');
      if (texts.length === 0) throw new PlanRejected(`"${f.op}" on ${tick(c.name)} needs words`);
      return { kind: 'contains', col, texts, negate: f.op === 'does not contain' };
    }
    case '=':
      if (c.kind !== 'numeric') return filterOf({ ...f, op: 'is' }, base, tables, lookup);
      return { kind: 'in', col, values: numbers(f, 1, c).map(String), negate: false };
    case '<>':
      if (c.kind !== 'numeric') return filterOf({ ...f, op: 'is not' }, base, tables, lookup);
      return { kind: 'cmp', col, op: '<>', value: numbers(f, 1, c)[0] as number };
    case '>':
    case '>=':
    case '<':
    case '<=':
      return { kind: 'cmp', col, op: f.op, value: numbers(f, 1, c)[0] as number };
    case 'between': {
      const [lo, hi] = numbers(f, 2, c) as [number, number];
      return { kind: 'between', col, lo: Math.min(lo, hi), hi: Math.max(lo, hi) };
    }
    case 'dates': {
      if (c.kind !== 'temporal') throw new PlanRejected(`${tick(c.name)} holds no dates`);
      const from = f.from?.slice(0, 10);
      const last = f.to?.slice(0, 10);
      if ((from !== undefined && !ISO.test(from)) || (last !== undefined && !ISO.test(last)) || (from === undefined && last === undefined)) throw new PlanRejected('a date range needs days written YYYY-MM-DD');
      const to = last !== undefined ? nextDay(last) : undefined;
      if (from !== undefined) nextDay(from);
      if (from !== undefined && to !== undefined && from >= to) throw new PlanRejected('the date range ends before it starts');
      return { kind: 'dateRange', col, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), label: `${from ?? '…'} to ${last ?? '…'}` };
    }
    case 'is missing':
    case 'is not missing':
      return { kind: 'null', col, isNull: f.op === 'is missing' };
  }
}

/** The engine's plan for the model's proposal; throws {@link PlanRejected} saying why it cannot be one. */
export async function resolvePlan(p: ModelPlan, tables: readonly TableMeta[], lookup: ValueLookup): Promise<Plan> {
  const base = tableOf(p, tables);
  const filters: Filter[] = [];
  for (const f of p.filters ?? []) filters.push(await filterOf(f, base, tables, lookup));
  if (p.kind === 'rows') {
    const rows: RowsPlan = { kind: 'rows', table: base, filters, limit: p.limit ?? 20, chart: 'auto' };
    if (p.orderBy !== undefined) rows.orderBy = { col: columnOf(p.orderBy.column, base, tables), dir: p.orderBy.dir };
    return rows;
  }
  const measures = (p.measures ?? []).map((m) => measureOf(m, base, tables));
  const plan: AggregatePlan = {
    kind: 'aggregate', base, measures: measures.length > 0 ? measures : [{ agg: 'count' }],
    dims: (p.groupBy ?? []).map((g) => dimOf(g, base, tables)), filters, chart: 'auto',
  };
  if (p.order !== undefined && plan.dims.length > 0) plan.order = p.order;
  if (p.limit !== undefined && plan.order !== undefined) plan.limit = p.limit;
  if (p.share === true && plan.dims.length > 0) plan.share = true;
  return plan;
}
