/**
 * One parse of a question, its parts in order, turned into a plan: what is measured (a count, an
 * aggregate of a column), how it is grouped and ranked, and what it is filtered on. Every part
 * must find its place; a part that cannot (a column in no role, a comparison with no number to
 * compare) fails the reading with the words it could not place, so no word is silently dropped.
 * The data's shape decides the rest: counts of a table of counts add the counts, identifiers are
 * never added up, total rows are left out.
 */
import { pickCol, type Chooser } from './choose';
import { cmpFilter, valFilters, whenFilters } from './composeFilters';
import { composeIntent } from './composeIntents';
import { finishPlan, type Draft } from './composeFinish';
import { identifierWords, numberWordsValue, singular } from '../language/words';
import { isPersonNoun } from '../language/concepts';
import { stemOf } from '../language/similar';
import type { Tok } from '../language/tokens';
import { joinKey } from './joins';
import type { DimSpec, Part } from './parts';
import { dateColumnOf, defaultAgg, frequencyWeight, isFlag, isGroupable, isIdLike, isNumeric, partColumnOf, timeNamed, yearColumnOf } from './shape';
import type { ColRef, ColumnMeta, Dim, Filter, Grain, Measure, Plan, TableMeta } from './types';

export type Composition =
  | { ok: true; plan: Plan; cost: number }
  | { ok: false; why: string; words: string[]; cost: number };

type Body<K extends Part['k']> = Extract<Part, { k: K }>;

/** The table most of the parts' readings point at (ties: the larger one). */
function preferredTable(parts: readonly Part[], tables: readonly TableMeta[]): TableMeta | undefined {
  const score = new Map<TableMeta, number>();
  const bump = (ts: TableMeta[]): void => {
    for (const t of new Set(ts)) score.set(t, (score.get(t) ?? 0) + 1 / new Set(ts).size);
  };
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as Record<string, unknown>;
    if (Array.isArray(o['alts'])) {
      // Only the cheapest readings of a mention count ("customers": the customers table, not ids in orders).
      const alts = o['alts'] as Array<{ ref?: ColRef; table?: TableMeta; cost?: number }>;
      const least = Math.min(...alts.map((a) => a.cost ?? 0));
      bump(alts.filter((a) => (a.cost ?? 0) <= least + 0.05).map((a) => a.ref?.table ?? a.table).filter((t): t is TableMeta => t !== undefined));
      return;
    }
    for (const v of Object.values(o)) if (typeof v === 'object') visit(v);
  };
  parts.forEach(visit);
  return [...tables].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || b.rowCount - a.rowCount)[0];
}

/** What the parts' readings of rows cost: "temperature" read as the rows of city-temperature.csv costs more than as `temp`. */
function rowsCost(parts: readonly Part[]): number {
  let cost = 0;
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as Record<string, unknown>;
    const alts = o['alts'];
    if (Array.isArray(alts) && alts.length > 0 && 'table' in (alts[0] as object) && !('ref' in (alts[0] as object))) {
      cost += Math.min(...(alts as Array<{ cost: number }>).map((a) => a.cost));
      return;
    }
    for (const v of Object.values(o)) if (typeof v === 'object') visit(v);
  };
  parts.forEach(visit);
  return cost;
}

/** The token spans of nouns read as the rows by guess (see `guessRows`). */
function guessedWords(p: Part): string[] {
  const json = JSON.stringify(p, (k, v: unknown) => (k === 'table' || k === 'ref' ? undefined : v));
  return json.includes('"guessed":true') ? [`${p.k}`] : [];
}

/** A time bucket of the table's date, or a column already holding it ("by year" with a `year` column). */
function timeDim(table: TableMeta, grain: Grain, of?: ColRef): Dim | undefined {
  if (of !== undefined && of.column.kind === 'temporal') return { col: of, grain };
  if (of !== undefined) return undefined;
  const date = dateColumnOf(table);
  const stored = grain === 'year' || grain === 'decade' ? yearColumnOf(table) : grain === 'month' || grain === 'monthOfYear' ? partColumnOf(table, 'month') : grain === 'quarter' || grain === 'quarterOfYear' ? partColumnOf(table, 'quarter') : undefined;
  // A `year` column is the year itself; a date made of it is used for coarser buckets (decades).
  if (stored !== undefined && (date === undefined || date.column.derived !== undefined) && grain !== 'decade') return { col: stored };
  return date !== undefined ? { col: date, grain } : undefined;
}

export function dimOf(ch: Chooser, s: DimSpec, table: TableMeta): Dim | string {
  if (s.d === 'grain') {
    const of = s.of !== undefined ? pickCol(ch, s.of, 'date') : undefined;
    if (s.of !== undefined && of === undefined) return `"${s.grain} of" names no date`;
    const d = timeDim(of?.table ?? table, s.grain, of);
    // "top 3 days" in a table with a `day` column and no dates: each row is a day.
    if (d === undefined && of === undefined && s.from < s.to && table.columns.some((c) => new RegExp(`^${s.grain}s?$`, 'i').test(c.name.trim()))) return 'rows';
    return d ?? `${table.label} has no date to group by ${s.grain}`;
  }
  // "for each store" naming `store_id`, repeated over rows: per store.
  if (s.d === 'rows') {
    const entity = s.rows.alts.find((a) => a.entity !== undefined)?.entity;
    return entity !== undefined ? { col: namesOfCodes(entity) } : 'rows';
  }
  const col = pickCol(ch, s.col, 'dim');
  if (col === undefined) return 'no column to group by';
  // "per order" naming `order_id`, one per row: per row, which groups nothing.
  // ("points by team" over one row per team is still a list by team: a name is no id.)
  const named = /(^|[^a-z])(id|key|code|no|nr|num|number|uuid|guid)$/i.test(col.column.name.trim()) || col.column.kind !== 'text';
  if (col.column.unique && isIdLike(col.column) && s.grain === undefined && !timeNamed(col.column) && named) return 'rows';
  // A date column named for its unit (`month` holding 1920-01-01, 1920-02-01, ...) groups by that unit.
  if (col.column.kind === 'temporal') return { col, grain: s.grain ?? unitOfName(col.column) ?? 'day' };
  if (s.grain !== undefined) return `${col.column.name} is not a date to group by ${s.grain}`;
  return { col };
}

/** "four doors", "6 cylinders" over a text column that writes its numbers ("four", "six"): that value. */
function numberValue(ch: Chooser, p: Body<'cmp'>): Filter | undefined {
  const hit = p.col?.alts.find((a) => a.ref.column.kind === 'text' && (a.ref.column.values ?? []).some((v) => valueNumber(v) === p.num.value));
  if (hit === undefined) return undefined;
  const values = (hit.ref.column.values ?? []).filter((v) => valueNumber(v) === p.num.value);
  ch.cost += hit.cost;
  return { kind: 'in', col: hit.ref, values, negate: false };
}

function valueNumber(v: string): number | undefined {
  const t = v.trim().toLowerCase();
  return /^\d+$/.test(t) ? Number(t) : numberWordsValue(t.split(/[\s-]+/));
}

/**
 * Whole numbers the question counts: a column named in the plural (`passengers`) holds counts and
 * adds up; one named in the singular (`individual`) names things, counted once each.
 */
function countsOf(col: ColRef, said: Tok | undefined): Measure {
  const last = identifierWords(col.column.name).filter((w) => /^[a-z]/.test(w)).pop() ?? '';
  // "how many schools" over `School`: the plural of a singular name counts the things it names.
  // (A word without a plural, "how many staff", and a plural name, `passengers`, add up.)
  const thing = singular(last) === last && said !== undefined && said.kind === 'word' && said.norm !== said.sing;
  return thing ? { agg: 'count_distinct', col } : { agg: 'sum', col };
}

/** The count a question asks for: rows, distinct values, or buckets of time. */
function countMeasure(ch: Chooser, p: Body<'count'>, table: TableMeta, draft: Draft): Measure | string {
  const t = p.target;
  if (t === undefined || Array.isArray(t)) return { agg: 'count' };
  if (typeof t === 'string') {
    const date = dateColumnOf(table);
    if (date !== undefined) return { agg: 'count_distinct', col: date, grain: t };
    const stored = timeDim(table, t);
    return stored !== undefined ? { agg: 'count_distinct', col: stored.col } : `${table.label} has no dates to count ${t}s in`;
  }
  if ('alts' in t && t.alts.length > 0 && 'table' in (t.alts[0] as object)) {
    type Hit = { table: TableMeta; entity?: ColRef; generic?: boolean; cost: number };
    // The cheapest reading of the rows ("customers": the customers table over ids repeated in orders).
    // ... unless a verb names the other table ("customers who ordered": the ids in orders).
    const verbs = (ch.tokens ?? []).filter((x) => x.pos === 'VERB').map((x) => stemOf(x.lemma));
    const said = (h: Hit): number => (h.table.tokens.some((w) => verbs.includes(stemOf(w))) ? -1 : 0);
    const hits = (t.alts as Hit[]).slice().sort((a, b) => said(a) - said(b) || a.cost - b.cost || (a.table === table ? -1 : b.table === table ? 1 : 0));
    const hit = hits[0] as Hit;
    draft.rowsTable = hit.table;
    // "how many stations" in stations.csv, where `station` repeats: rows are observations of the stations.
    const nameOnly = (c: ColumnMeta): string | undefined => {
      const ws = identifierWords(c.name).map(singular).filter((w) => !/^(id|key|code|no|nr|num|number)$/.test(w));
      return ws.length === 1 ? ws[0] : undefined;
    };
    // (In a table of counts the rows are cells: "how many babies" adds up the counts, while "how many
    // names", the column's own noun, still counts its values.)
    const counted = ch.tokens?.[(t as { to: number }).to - 1]?.sing;
    const weighted = frequencyWeight(hit.table) !== undefined;
    // (Only when the rows are said by that noun: "how many women" in pima_diabetes.csv counts women, not `diabetes` values.)
    const named = hit.generic === true ? undefined : hit.table.columns.find((c) => (c.kind === 'text' || isIdLike(c)) && c.distinct <= hit.table.rowCount / 1.5 && hit.table.tokens.includes(nameOnly(c) ?? '\u0000')
      && (nameOnly(c) === counted || (!weighted && counted !== undefined && hit.table.tokens.includes(counted))));
    if (named !== undefined) return { agg: 'count_distinct', col: { table: hit.table, column: named } };
    // Rows that are observations of something counted: the things, by their key. (In a table of
    // counts, "how many babies named emma", a row is a cell whose count column says how many.)
    return hit.entity !== undefined && (!weighted || nameOnly(hit.entity.column) === counted) ? { agg: 'count_distinct', col: hit.entity } : { agg: 'count' };
  }
  const col = pickCol(ch, t as Extract<typeof t, { alts: Array<{ ref: ColRef }> }>, 'count');
  if (col === undefined) return 'nothing to count';
  draft.counted = col;
  const said = ch.tokens?.[(t as { to: number }).to - 1];
  // "how many died" meeting `exit` (an age) because WordNet's "exit" is also to die: a verb counts
  // an event, which only a yes/no column or a column of counts can hold.
  const link = (t as { alts: Array<{ ref: ColRef; link?: string }> }).alts.find((a) => a.ref.column === col.column)?.link;
  if (said?.pos === 'VERB' && link === 'synonym' && col.column.kind === 'numeric' && !isFlag(col.column) && col.column.role !== 'count') return `"${said.raw}" is an event no column counts`;
  // "how many survivors" naming a yes/no `Survived`: the rows where it holds.
  if (col.column.kind === 'boolean' && !p.distinct) {
    draft.filters.push({ kind: 'bool', col, value: true });
    return { agg: 'count' };
  }
  if (col.column.kind === 'temporal' && !p.distinct) {
    // "how many deprecated languages" meeting a `Deprecated` date: the rows that have one.
    if (col.column.nonNull < col.table.rowCount) draft.filters.push({ kind: 'null', col, isNull: false });
    return { agg: 'count' };
  }
  if (p.distinct || timeNamed(col.column)) return { agg: 'count_distinct', col };
  // "how many orders" naming `order_id`: one per row; "how many makes": the distinct values.
  if (col.column.unique && (isIdLike(col.column) || col.column.kind === 'text')) return { agg: 'count' };
  if (isNumeric(col.column) && /INT/i.test(col.column.type) && (typeof col.column.min !== 'number' || col.column.min >= 0) && !isIdLike(col.column)) return countsOf(col, said);
  if (isNumeric(col.column) && !isIdLike(col.column) && !isGroupable(col.column)) {
    // "how many passengers" over whole counts adds them up; "how many co2 readings" over a
    // level counts the rows that hold one.
    if (/INT/i.test(col.column.type) && (typeof col.column.min !== 'number' || col.column.min >= 0)) return countsOf(col, said);
    draft.filters.push({ kind: 'null', col, isNull: false });
    return { agg: 'count' };
  }
  return { agg: 'count_distinct', col };
}

/** The unit a date column's name says (`month`, `week_start` is not one): its grain. */
function unitOfName(c: ColumnMeta): Grain | undefined {
  const m = /^(hour|day|week|month|quarter|year|decade)s?$/i.exec(c.name.trim());
  return m !== null ? (m[1] as string).toLowerCase() as Grain : undefined;
}

/** The time bucket every row is one of (a daily series: day), if there is one. */
export function rowsGrain(table: TableMeta): Grain | undefined {
  const d = dateColumnOf(table);
  if (d === undefined || d.column.distinct < table.rowCount * 0.98 || d.column.nonNull < table.rowCount * 0.98) return undefined;
  if (d.column.partsGrain !== undefined) return d.column.partsGrain;
  if (!/^DATE$/i.test(d.column.type) && d.column.sqlTemplate === undefined) return undefined;
  // One row per date: the spacing of the dates says the bucket (weekly prices are weeks, not days).
  const span = typeof d.column.min === 'string' && typeof d.column.max === 'string' ? (Date.parse(d.column.max.slice(0, 10)) - Date.parse(d.column.min.slice(0, 10))) / 86_400_000 : NaN;
  const step = d.column.distinct > 1 ? span / (d.column.distinct - 1) : NaN;
  if (!Number.isFinite(step) || step < 1.5) return 'day';
  return step >= 6.5 && step <= 7.5 ? 'week' : step >= 27 && step <= 32 ? 'month' : step >= 88 && step <= 93 ? 'quarter' : step >= 360 && step <= 370 ? 'year' : undefined;
}

const GRAIN_ORDER: Grain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'decade'];

function measuresOf(ch: Chooser, p: Body<'measure'>, draft: Draft): string | undefined {
  for (const c of p.cols) {
    // "survival rate of women" naming a yes/no `Survived`: the share of the rows where it holds.
    const flag = p.aggs[0] === 'avg' && p.cols.length === 1 ? c.alts.find((a) => a.ref.column.kind === 'boolean' && a.cost <= 0.3) : undefined;
    if (flag !== undefined) {
      ch.cost += flag.cost;
      draft.rateOf = flag.ref;
      draft.measures.push({ agg: 'count' });
      return undefined;
    }
    const col = pickCol(ch, c, 'measure');
    if (col === undefined) return 'no numeric column to measure';
    if (p.unit !== undefined) {
      // "average daily trips" over daily rows: the rows' own average; over finer rows, or "average
      // monthly total of", the totals per bucket averaged.
      const rows = rowsGrain(col.table);
      const date = dateColumnOf(col.table);
      const finer = rows === undefined || GRAIN_ORDER.indexOf(rows) < GRAIN_ORDER.indexOf(p.unit);
      if (p.totals === true || (finer && defaultAgg(col.column) === 'sum' && p.aggs[0] === 'avg')) {
        if (date === undefined) return `${col.table.label} has no date to total per ${p.unit}`;
        draft.perBucket = { col: date, grain: p.unit };
        draft.measures.push({ agg: 'avg', col });
        continue;
      }
      if (rows !== undefined && rows !== p.unit && !finer) return `the rows of ${col.table.label} are ${rows}s, not ${p.unit}s`;
    }
    for (const agg of p.aggs) if (!draft.measures.some((m) => m.col?.column === col.column && m.agg === agg)) draft.measures.push({ agg, col });
  }
  return undefined;
}

/** Composes one parse (standalone; follow-ups go through `followUp.ts`). */
export function compose(parts: readonly Part[], tables: TableMeta[], ch: Chooser): Composition {
  const fail = (why: string, ps: Part[] = []): Composition => ({ ok: false, why, words: ps.map((p) => `${p.from}:${p.to}`), cost: ch.cost });
  const unknown = parts.filter((p) => p.k === 'unknown');
  if (unknown.length > 0) return fail('unknown words', unknown);
  const live = parts.filter((p) => p.k !== 'filler' && p.k !== 'define');
  // "how many cars were sold": counting rows says nothing of what the last verb asks.
  const predicate = parts.find((p) => p.k === 'filler' && p.predicate === true);
  if (predicate !== undefined && live.every((p) => p.k === 'count' || p.k === 'rows') && live.some((p) => p.k === 'count')) return fail('a verb the data holds nothing about', [predicate]);
  // "% of patients who died": a verb ending a clause on the rows is a condition the data must hold.
  const before = ch.tokens?.slice(0, predicate?.from ?? 0).reverse().find((t) => t.pos !== 'AUX' && !/^(have|has|had|were|was|be|been)$/.test(t.norm));
  if (predicate !== undefined && /^(who|that|which)$/.test(before?.norm ?? '')) return fail('a verb the data holds nothing about', [predicate]);
  ch.cost += rowsCost(live);
  ch.prefer ??= preferredTable(live, tables);
  // Columns the question names, bare or as a grouping: a value of theirs is likelier meant.
  ch.named ??= new Set(live.flatMap((p) => (p.k === 'col' ? p.col.alts.filter((a) => a.cost <= 0.3).map((a) => a.ref.column)
    : p.k === 'group' ? p.dims.flatMap((x) => (x.d === 'col' ? x.col.alts.filter((a) => a.cost <= 0.3).map((a) => a.ref.column) : [])) : [])));
  const table = ch.prefer;
  if (table === undefined) return fail('no table is selected');
  const intent = composeIntent(live, table, ch);
  if (intent !== undefined) return intent.ok ? { ok: true, plan: intent.plan, cost: ch.cost } : fail(intent.why, intent.parts);
  const guessed = new Set(live.flatMap((p) => (p.k === 'rows' || p.k === 'count' || p.k === 'rank' || p.k === 'which' ? guessedWords(p) : [])));
  if (guessed.size > 1) return fail('two nouns that cannot both be the rows', live.filter((p) => guessedWords(p).length > 0));
  // "how many patients got thorotrast" in thorotrast.csv: the rows named again after a verb are
  // what the verb says of them (a column the data would have to hold), not the rows once more.
  const rowsSaid = live.filter((p) => (p.k === 'rows' && p.vals === undefined) || (p.k === 'count' && p.target !== undefined && !Array.isArray(p.target) && typeof p.target === 'object' && p.target.alts.every((a) => !('ref' in a))));
  // "yankees homers 1961": two nouns taken for the same people, where at most one can be them.
  const people = rowsSaid.filter((p) => p.k === 'rows' && p.rows.alts.every((a) => a.generic !== true && a.cost >= 0.3));
  if (people.length > 1) return fail('two nouns that cannot both be the rows', people.slice(1));
  const second = rowsSaid[1];
  if (second !== undefined && (ch.tokens ?? []).some((t) => t.pos === 'VERB' && t.i >= (rowsSaid[0] as Part).to && t.i < second.from)) return fail('what the verb says of the rows is not in the data', [second]);
  const namedRows = live.some((p) => p.k === 'rows' && guessedWords(p).length === 0 && p.rows.alts.some((a) => a.generic !== true));
  if (guessed.size > 0 && namedRows) return fail('a noun that is not what the rows are', live.filter((p) => guessedWords(p).length > 0));
  const draft: Draft = { table, measures: [], dims: [], filters: [], used: new Set(), chart: 'auto', ranks: [], bare: [] };
  if (ch.tokens !== undefined) draft.tokens = ch.tokens;
  const compare = live.some((p) => p.k === 'compare');
  const use = (p: Part): void => {
    draft.used.add(p);
  };
  // "started in 2020", "reviews in 2024", "hired each year": a date column named bare is the date a time is about.
  const dated = live.find((p): p is Body<'col'> => p.k === 'col' && p.neg !== true && p.col.alts.some((a) => a.ref.column.kind === 'temporal'));
  const timed = live.some((p) => p.k === 'when' || (p.k === 'group' && p.dims.some((s) => s.d === 'grain' && s.of === undefined)));
  if (dated !== undefined && timed) {
    draft.date = pickCol(ch, dated.col, 'date');
    if (draft.date !== undefined) use(dated);
  }
  // "how many reviews in 2024" naming `last_review`: the rows are counted, on that date.
  const countedDate = live.find((p): p is Body<'count'> => p.k === 'count' && p.target !== undefined && typeof p.target === 'object' && !Array.isArray(p.target)
    && p.target.alts.some((a) => 'ref' in a && a.ref.column.kind === 'temporal'));
  if (countedDate !== undefined && draft.date === undefined) draft.date = pickCol(ch, countedDate.target as Body<'col'>['col'], 'date');
  // "when was woody released", "released in june": a verb naming a date column (`release`) says which date.
  if (draft.date === undefined) {
    const verbs = (ch.tokens ?? []).filter((t) => t.pos === 'VERB').map((t) => stemOf(t.lemma));
    const named = table.columns.find((c) => c.kind === 'temporal' && identifierWords(c.name).some((w) => verbs.includes(stemOf(w))));
    if (named !== undefined) draft.date = { table, column: named };
  }
  // Filters first: they take the values, numbers and times the question names.
  for (const p of live) {
    if (p.k === 'val' || (p.k === 'rows' && p.vals !== undefined) || (p.k === 'count' && p.vals !== undefined)) {
      const vals = p.k === 'val' ? p : { k: 'val' as const, vals: p.vals ?? [], from: p.from, to: p.to, cost: 0 };
      const r = valFilters(ch, vals, compare);
      if (typeof r === 'string') return fail(r, [p]);
      draft.filters.push(...r.filters);
      draft.dims.push(...r.dims);
      if (p.k === 'val' && p.rate === true) {
        draft.share ??= { k: 'share', from: p.from, to: p.to, cost: 0 };
        draft.within = true;
      }
      if (p.k === 'val') use(p);
    } else if (p.k === 'cmp' && p.op === '=' && p.col !== undefined && p.hi === undefined && numberValue(ch, p) !== undefined) {
      draft.filters.push(numberValue(ch, p) as Filter);
      use(p);
    } else if (p.k === 'cmp') {
      // "orders over 450": a number right after the rows is their amount.
      const before = live[live.indexOf(p) - 1];
      const colless = p.col === undefined && p.attr === undefined;
      const rowsBefore = before?.k === 'rows' ? before.rows : before?.k === 'count' && before.target !== undefined && !Array.isArray(before.target) && typeof before.target === 'object' && before.target.alts.some((a) => 'table' in a && !('ref' in a)) ? before.target as Body<'rows'>['rows'] : undefined;
      const rows = colless ? rowsBefore?.alts[0]?.table : undefined;
      // "chicks with fewer than 3 measurements": a number of rows per thing, which is not computed.
      const next = live[live.indexOf(p) + 1];
      if (colless && next?.k === 'rows' && next.from === p.to && next.rows.alts.some((a) => a.generic === true)) return fail('a count of rows per group compared with a number', [p, next]);
      // "married for more than 10 years": the number belongs to the column named right before it.
      const numBefore = colless && p.op !== '=' && before?.k === 'col' && before.col.alts.some((a) => isNumeric(a.ref.column)) ? before : undefined;
      const given = numBefore !== undefined ? { ...p, col: numBefore.col } : rows !== undefined ? { ...p, rowsAfter: true } : p;
      if (numBefore !== undefined) use(numBefore);
      const f = cmpFilter(ch, given, rows ?? table);
      if (typeof f === 'string') return fail(f, [p]);
      draft.filters.push(f);
      use(p);
    } else if (p.k === 'when') {
      // "on weekends" over weekly or monthly rows: no row is a day of the week.
      const grain = rowsGrain(table);
      if (p.when.part?.part === 'isodow' && grain !== undefined && grain !== 'day' && grain !== 'hour') return fail(`the rows of ${table.label} are ${grain}s, not days`, [p]);
      // "african nations … in 2010": the dates of a table joined to one without any.
      const undated = draft.date === undefined && dateColumnOf(table) === undefined && yearColumnOf(table) === undefined;
      const r = whenFilters(p.when, (undated ? tables.find((t) => t !== table && dateColumnOf(t) !== undefined && (joinKey(table, t) ?? joinKey(t, table)) !== undefined) : undefined) ?? table, draft.date);
      if (typeof r === 'string') return fail(r, [p]);
      draft.filters.push(...r.filters);
      draft.dims.push(...r.dims);
      use(p);
    } else if (p.k === 'contains') {
      const col = pickCol(ch, p.col, 'filter');
      if (col === undefined || col.column.kind !== 'text') return fail('no text column to search', [p]);
      draft.filters.push({ kind: 'contains', col, texts: [p.text], negate: p.neg === true });
      use(p);
    } else if (p.k === 'null') {
      const col = pickCol(ch, p.col, 'filter');
      if (col === undefined) return fail('no column', [p]);
      // "policies that have a deny statement" over a count (`deny_statements` 0, 1, 3): more than none.
      const counted = !p.isNull && p.none !== true && col.column.kind === 'numeric' && col.column.min === 0 && Number.isInteger(col.column.max) && (col.column.max as number) > 0;
      draft.filters.push(p.none === true ? { kind: 'none', col } : counted ? { kind: 'cmp', col, op: '>', value: 0 } : { kind: 'null', col, isNull: p.isNull });
      use(p);
    }
  }
  // Counts and measures.
  for (const p of live) {
    if (p.k === 'count') {
      let m = countMeasure(ch, p, table, draft);
      if (typeof m === 'string') return fail(m, [p]);
      // "how many distinct rad values": the distinct values of the column named before the rows.
      const distinctOf = p.distinct && p.qual !== undefined ? pickCol(ch, p.qual, 'count') : undefined;
      if (distinctOf !== undefined) {
        m = { agg: 'count_distinct', col: distinctOf };
        draft.measures.push(m);
        draft.countPart = p;
        use(p);
        continue;
      }
      if (p.qual !== undefined) {
        // "how many remote employees": the word before the rows is a yes/no column.
        const flag = p.qual.alts.find((a) => isFlag(a.ref.column));
        // "how many co2 readings": the rows that hold a co2 value.
        const valued = flag === undefined && m.agg === 'count' ? p.qual.alts.find((a) => isNumeric(a.ref.column)) : undefined;
        if (valued !== undefined) draft.filters.push({ kind: 'null', col: valued.ref, isNull: false });
        else if (flag === undefined) return fail('a word before the rows that is not a yes/no column', [p]);
        else draft.filters.push(flag.ref.column.kind === 'boolean' ? { kind: 'bool', col: flag.ref, value: true } : { kind: 'cmp', col: flag.ref, op: '=', value: 1 });
      }
      draft.measures.push(m);
      draft.countPart = p;
      use(p);
    } else if (p.k === 'measure') {
      const why = measuresOf(ch, p, draft);
      if (why !== undefined) return fail(why, [p]);
      use(p);
    }
  }
  // "status 0 vs status 2": two numbers of one column are its values side by side, never both at once.
  for (const col of new Set(draft.filters.flatMap((f) => (f.kind === 'cmp' && f.op === '=' ? [f.col.column] : [])))) {
    const same = draft.filters.filter((f): f is Extract<Filter, { kind: 'cmp' }> => f.kind === 'cmp' && f.op === '=' && f.col.column === col);
    const ref = same[0]?.col;
    if (same.length < 2 || ref === undefined) continue;
    draft.filters = [...draft.filters.filter((f) => !same.includes(f as Extract<Filter, { kind: 'cmp' }>)), { kind: 'in', col: ref, values: same.map((f) => String(f.value)), negate: false }];
    if (!draft.dims.some((x) => x.col.column === col)) draft.dims.push({ col: ref });
  }
  // Groupings, which, rankings.
  for (const p of live) {
    if (p.k === 'group') {
      if (p.adj !== true) draft.groupedBy = true;
      if (p.within === true) draft.within = true;
      for (const s of p.dims) {
        const d = s.d === 'grain' && s.of === undefined && draft.date !== undefined ? { col: draft.date, grain: s.grain } : dimOf(ch, s, table);
        // "by grade" where nothing is a grade: a guess at the rows groups nothing, so it is no reading.
        if (d === 'rows' && s.d === 'rows' && s.rows.alts.every((a) => a.guessed === true)) return fail('nothing in the data is what the question groups by', [s as unknown as Part]);
        if (d === 'rows') continue;
        // "earn per hour", "salary per year" where nothing is dated: the measure's unit, not a grouping.
        if (typeof d === 'string' && s.d === 'grain' && !p.adj && dateColumnOf(table) === undefined && yearColumnOf(table) === undefined && live.some((x) => x.k === 'measure' || x.k === 'col' || x.k === 'aggs')) continue;
        if (typeof d === 'string') return fail(d, [p]);
        // "largest country by area": a number after "by" ranks rather than groups.
        if (isNumeric(d.col.column) && !isGroupable(d.col.column) && d.grain === undefined && !timeNamed(d.col.column)) draft.rankBy = d.col;
        else if (p.adj === true && unitOfRows(d, table)) draft.unitGrain = d.grain;
        else {
          // "monthly trend of cases by onset date": the date the months are of, not a second grouping by day.
          const bucket = s.d === 'col' && d.col.column.kind === 'temporal' && unitOfName(d.col.column) === undefined ? draft.dims.findIndex((x) => x.grain !== undefined && x.col.column.kind === 'temporal') : -1;
          if (bucket >= 0) draft.dims[bucket] = { ...(draft.dims[bucket] as Dim), col: d.col };
          else draft.dims.push(d);
        }
      }
      use(p);
    } else if (p.k === 'which') {
      if (draft.which !== undefined && p.who === 'when' && draft.which.who === undefined) {
        // "peak GNP, and the year?": the row behind the answer is asked for too.
        draft.askWhen = true;
        use(p);
        continue;
      }
      draft.which = p;
      if (p.also !== undefined) {
        const d = dimOf(ch, p.also, table);
        if (typeof d === 'string') return fail(d === 'rows' ? 'per row' : d, [p]);
        draft.dims.push(d);
      }
      use(p);
    } else if (p.k === 'rank' || p.k === 'top') {
      draft.ranks.push(p);
      use(p);
    } else if (p.k === 'trend') {
      const d = timeDim(table, naturalTrendGrain(table));
      if (d === undefined) return fail(`${table.label} has no date to follow over time`, [p]);
      if (!draft.dims.some((x) => x.grain !== undefined)) draft.dims.push(d);
      use(p);
    } else if (p.k === 'share') {
      draft.share = p;
      use(p);
    } else if (p.k === 'compare') {
      draft.compare = p;
      use(p);
    } else if (p.k === 'chart') {
      draft.chart = p.wish === 'table' ? 'none' : p.wish === 'line' ? 'line' : p.wish === 'bar' ? 'bar' : 'auto';
      use(p);
    } else if (p.k === 'order') {
      draft.order = p;
      use(p);
    } else if (p.k === 'everything' || (p.k === 'edit' && p.edit === 'list')) {
      if (p.k === 'edit') draft.listing = true;
      use(p);
    } else if (p.k === 'absent') {
      // "customers who have not ordered": the subject's key does not occur in the other table.
      const other = p.rows.alts.find((a) => a.table !== (draft.rowsTable ?? table))?.table;
      const subject = draft.rowsTable ?? tables.find((t) => t !== other && other !== undefined && joinKey(other, t) !== undefined);
      const key = other !== undefined && subject !== undefined ? joinKey(other, subject) : undefined;
      if (other === undefined || subject === undefined || key === undefined) return fail('a "not" about rows of no other table', [p]);
      draft.rowsTable = subject;
      draft.filters.push({ kind: 'absentIn', col: { table: subject, column: key.right }, other, otherColumn: key.left });
      use(p);
    } else if (p.k === 'rows') {
      draft.rowsTable ??= p.rows.alts[0]?.table;
      // "school with the highest average score" over `School` codes repeated per student: the schools ranked.
      const entity = p.rows.alts.length === 1 ? p.rows.alts[0]?.entity : undefined;
      if (entity !== undefined && p.vals === undefined && live.some((x) => (x.k === 'rank' || x.k === 'top') && x.from > p.from) && !live.some((x) => x.k === 'which' || x.k === 'group')) draft.dims.push({ col: entity });
      else draft.rowsPart = p;
      use(p);
    }
  }
  // Bare columns: a flag filters ("refunded orders"), a number is measured, a category groups.
  for (const p of live) {
    if (p.k !== 'col' || draft.used.has(p)) continue;
    const flag = p.col.alts.filter((a) => isFlag(a.ref.column) && a.cost <= 1.3).sort((a, b) => a.cost - b.cost)[0];
    const aggregated = live.some((x) => x.k === 'aggs' && !x.adverb && x.to === p.from);
    // "accuracy by condition" over a 0/1 `acc`: a quality noun names the share of ones, where
    // "accurate trials" or "smokers" pick the rows that have it.
    const said = p.to - p.from === 1 ? ch.tokens?.[p.from] : undefined;
    const quality = flag !== undefined && said?.pos === 'NOUN' && said.norm === said.sing && !isPersonNoun(said.sing) && flag.ref.column.kind === 'numeric'
      && !identifierWords(flag.ref.column.name).includes(said.sing) && !live.some((x) => x.k === 'measure' || x.k === 'count' || x.k === 'aggs');
    if (flag !== undefined && !aggregated && !quality) {
      const yes = (p.neg !== true) !== (flag.negated === true);
      draft.filters.push(flag.ref.column.kind === 'boolean' ? { kind: 'bool', col: flag.ref, value: yes } : { kind: 'cmp', col: flag.ref, op: '=', value: yes ? 1 : 0 });
      ch.cost += flag.cost;
      use(p);
      continue;
    }
    if (p.neg === true) return fail('a negation of a column that is not yes or no', [p]);
    draft.bare.push(p);
  }
  // A yes/no column said both ways ("indoor vs outdoor"): its two sides side by side.
  for (const f of [...draft.filters]) {
    const other = draft.filters.find((g) => g !== f && g.col.column === f.col.column && isFlag(f.col.column) && (g.kind === 'bool' || g.kind === 'cmp') && (f.kind === 'bool' || f.kind === 'cmp'));
    if (other === undefined) continue;
    draft.filters = draft.filters.filter((g) => g !== f && g !== other);
    if (!draft.dims.some((x) => x.col.column === f.col.column)) draft.dims.push({ col: f.col });
  }
  // Two values of one column said apart ("girls vs boys"): never both at once, so side by side.
  for (const f of [...draft.filters]) {
    if (f.kind !== 'in' || f.negate || !draft.filters.includes(f)) continue;
    const others = draft.filters.filter((g): g is Extract<Filter, { kind: 'in' }> => g !== f && g.kind === 'in' && !g.negate && g.col.column === f.col.column);
    if (others.length === 0) continue;
    draft.filters = draft.filters.filter((g) => !others.includes(g as Extract<Filter, { kind: 'in' }>) && g !== f);
    draft.filters.push({ ...f, values: [...new Set([...f.values, ...others.flatMap((g) => g.values)])] });
    if (!draft.dims.some((x) => x.col.column === f.col.column)) draft.dims.push({ col: f.col });
  }
  // Aggregates said alone ("the average") apply to the bare column after them.
  for (const p of live) {
    if (p.k !== 'aggs') continue;
    // "on average", "in total" said after the measure; "the average" before it.
    const next = draft.bare.find((b) => b.from >= p.to && (pickCol({ ...ch, cost: 0 }, b.col, 'measure') !== undefined)) ?? (p.adverb === true ? draft.bare.find((b) => pickCol({ ...ch, cost: 0 }, b.col, 'measure') !== undefined) : undefined);
    const col = next !== undefined ? pickCol(ch, next.col, 'measure') : undefined;
    if (next !== undefined && col !== undefined) {
      for (const agg of p.aggs) draft.measures.push({ agg, col });
      draft.bare = draft.bare.filter((b) => b !== next);
      use(next);
    } else if (p.adverb === true && (draft.ranks.length > 0 || draft.measures.length > 0)) draft.adverbAgg = p.aggs[0];
    else return fail('an aggregate of nothing', [p]);
    use(p);
  }
  return finishPlan(draft, ch, live, fail);
}

/** "average daily trips" over daily rows: "daily" says the unit, not a grouping. */
function unitOfRows(d: Dim, table: TableMeta): boolean {
  const c = d.col.column;
  if (d.grain === undefined || c.kind !== 'temporal') return false;
  const everyRow = c.distinct >= table.rowCount * 0.98 && c.nonNull >= table.rowCount * 0.98;
  const rows: Grain | undefined = everyRow ? (c.partsGrain ?? (/^DATE$/i.test(c.type) || c.sqlTemplate !== undefined ? 'day' : undefined)) : undefined;
  return rows === d.grain;
}

/** The bucket of a trend: months for a few years of dates, years for longer. */
function naturalTrendGrain(table: TableMeta): Grain {
  const date = dateColumnOf(table);
  const lo = typeof date?.column.min === 'string' ? Date.parse(date.column.min.slice(0, 10)) : NaN;
  const hi = typeof date?.column.max === 'string' ? Date.parse(date.column.max.slice(0, 10)) : NaN;
  const years = (hi - lo) / (365.25 * 86_400_000);
  if (date?.column.partsGrain === 'year' || years > 10) return 'year';
  return years > 0.25 || !Number.isFinite(years) ? 'month' : 'day';
}

/** The names a column of codes stands for (`Team Name` for `Team Code`, as many of each): they read better. */
function namesOfCodes(c: ColRef): ColRef {
  const first = identifierWords(c.column.name)[0];
  const names = c.column.kind === 'text' && c.column.values?.every((v) => /^[A-Z0-9]{2,4}$/.test(v)) === true
    ? c.table.columns.find((x) => x !== c.column && x.kind === 'text' && x.distinct === c.column.distinct && identifierWords(x.name)[0] === first && x.values?.some((v) => /[a-z]/.test(v)) === true)
    : undefined;
  return names !== undefined ? { table: c.table, column: names } : c;
}
