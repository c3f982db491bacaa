/**
 * Question understanding without a network: tokens -> cues and spans -> roles -> a {@link Plan},
 * or an honest {@link Unanswerable} naming what could not be placed. Deterministic: the same
 * question over the same data always gives the same plan.
 */
import { findCues, GRAIN_NOUN, type Cue, type Intent } from './cues';
import { findDateExprs } from './dates';
import { joinKey } from './joins';
import { defaultAgg, ROW_WORDS } from './lexicon';
import { findSpans, type MentionIndex, type Span } from './mentions';
import {
  absentFilters, booleanFilters, comparisons, dateColumn, moneyColumn, dateFilters, equalityFilters, noneFilters, isGroupable, isIdLike, isNumeric, mark, nextSpan, pickColumn,
  primaryTable, valueFilters, type Parse,
} from './roles';
import { STOP_WORDS, tokenize, type Token } from './text';
import type { Agg, ChartPref, ColRef, Dim, Filter, Grain, Measure, Plan, TableMeta, Understanding } from './types';

const unanswerable = (reason: string, unknown: string[] = []): Understanding => ({ kind: 'unanswerable', reason, unknown });

/** Drops spans that are really cue words, or turns cues into columns when the data has such a column. */
function reconcile(tokens: readonly Token[], cues: Cue[], spans: Span[]): { cues: Cue[]; spans: Span[] } {
  const keepCues: Cue[] = [];
  const dropSpans = new Set<Span>();
  for (const c of cues) {
    const inside = spans.filter((s) => s.start >= c.at && s.end <= c.end);
    const exact = inside.find((s) => s.kind === 'column' && s.exact);
    if (c.kind === 'grain' && exact !== undefined && exact.kind === 'column' && !exact.cols.some((x) => x.column.kind === 'temporal')) {
      // "by year" where the data has a `year` column: group by that column.
      keepCues.push({ kind: 'group', at: c.at, end: exact.start });
      continue;
    }
    if ((c.kind === 'agg' || c.kind === 'count') && exact !== undefined) {
      const following = spans.find((s) => s.start >= c.end && s.start <= c.end + 1 && s !== exact);
      if (following === undefined) {
        continue; // the word is the column ("average total")
      }
    }
    for (const s of inside) dropSpans.add(s);
    // A partial span reaching into a cue ("order value" is fine; "trend" matched fuzzily is not).
    for (const s of spans) if (s.start < c.end && s.end > c.at && s.kind === 'column' && !s.exact && s.end - s.start === 1) dropSpans.add(s);
    keepCues.push(c);
  }
  void tokens;
  return { cues: keepCues, spans: spans.filter((s) => !dropSpans.has(s)) };
}

function parse(question: string, tables: TableMeta[], index: MentionIndex): Parse {
  const tokens = tokenize(question);
  const r = reconcile(tokens, findCues(tokens), findSpans(tokens, tables, index));
  const p: Parse = { question, tokens, cues: r.cues, spans: r.spans, dates: [], tables, used: new Set(), taken: new Set() };
  const blocked = new Set<number>();
  for (const c of p.cues) if (c.kind === 'cmp' && !c.postfix) blocked.add(c.end);
  for (const c of p.cues) if (c.kind === 'topN') for (let k = c.at; k < c.end; k++) blocked.add(k);
  for (const s of p.spans) for (let k = s.start; k < s.end; k++) if (s.kind === 'value') blocked.add(k);
  const dc = dateColumn(p, primaryTable(p));
  const latest = typeof dc?.column.max === 'string' ? dc.column.max : undefined;
  p.dates = findDateExprs(tokens, latest, blocked);
  // "sales by channel" in sales.csv means the money, not the rows, unless they are counted.
  for (const s of [...p.spans]) {
    if (s.kind !== 'table' || tokens[s.start]?.stem !== 'sale' || s.end - s.start !== 1) continue;
    if (p.cues.some((c) => (c.kind === 'count' || c.kind === 'share' || (c.kind === 'agg' && c.agg === 'count')) && c.end <= s.start && s.start - c.end <= 2)) continue;
    const money = moneyColumn(p, s.table);
    if (money) p.spans[p.spans.indexOf(s)] = { kind: 'column', start: s.start, end: s.end, score: s.score, cols: [money], exact: false };
  }
  // Month names and years explained as dates are not column or value mentions.
  p.spans = p.spans.filter((s) => !p.dates.some((d) => s.start >= d.at && s.end <= d.end && s.kind !== 'value'));
  // "customer segment": a table name right before one of its columns only qualifies that column.
  for (const s of [...p.spans]) {
    if (s.kind !== 'table') continue;
    const c = p.spans.find((x) => x.kind === 'column' && x.start === s.end && x.cols.some((y) => y.table === s.table));
    if (c === undefined || c.kind !== 'column') continue;
    c.start = s.start;
    c.cols = c.cols.filter((y) => y.table === s.table);
    p.spans = p.spans.filter((x) => x !== s);
  }
  return p;
}

function hasIntent(p: Parse, intent: Intent): boolean {
  return p.cues.some((c) => c.kind === 'intent' && c.intent === intent);
}

export function chartPref(p: Parse): ChartPref {
  if (hasIntent(p, 'asTable')) return 'none';
  if (hasIntent(p, 'asLine')) return 'line';
  if (hasIntent(p, 'asBar')) return 'bar';
  return 'auto';
}

/** Content words nothing explains: not a cue, span, date, number or common word. */
export function leftovers(p: Parse): Array<{ i: number; t: Token }> {
  const covered = new Set<number>();
  for (const c of p.cues) for (let k = c.at; k < c.end; k++) covered.add(k);
  for (const s of p.spans) for (let k = s.start; k < s.end; k++) covered.add(k);
  for (const d of p.dates) for (let k = d.at; k < d.end; k++) covered.add(k);
  return p.tokens
    .map((t, i) => ({ i, t }))
    .filter(({ i, t }) => !covered.has(i) && t.kind === 'word' && !STOP_WORDS.has(t.norm) && !STOP_WORDS.has(t.stem) && t.norm.length >= 3 && !ROW_WORDS.has(t.stem));
}

const GRAIN_BY_SPAN = (min: string, max: string): Grain => {
  const days = (Date.parse(max.slice(0, 10)) - Date.parse(min.slice(0, 10))) / 86_400_000;
  if (!Number.isFinite(days) || days <= 3) return 'hour';
  if (days <= 62) return 'day';
  if (days <= 200) return 'week';
  if (days <= 6 * 366) return 'month';
  return 'year';
};

function timeDim(p: Parse, prefer: TableMeta | undefined, grain: Grain | undefined): Dim | undefined {
  const col = dateColumn(p, prefer);
  if (!col) return undefined;
  for (const s of p.spans) if (s.kind === 'column' && s.cols.some((c) => c.column === col.column)) p.taken.add(s);
  const min = typeof col.column.min === 'string' ? col.column.min : '';
  const max = typeof col.column.max === 'string' ? col.column.max : '';
  let g = grain ?? GRAIN_BY_SPAN(min, max);
  if (g === 'hour' && !/TIMESTAMP/i.test(col.column.type) && !/%H/.test(col.column.expr)) g = 'day';
  return { col, grain: g };
}

/** The column a group-by span stands for (a table named after a key: "per customer" -> customer_id). */
function dimOfSpan(s: Span, prefer: TableMeta | undefined): ColRef | undefined {
  if (s.kind === 'column') return pickColumn(s, 'dim', prefer);
  if (s.kind === 'table' && prefer !== undefined && s.table !== prefer) {
    const key = joinKey(prefer, s.table);
    if (key) return { table: prefer, column: key.left };
  }
  return undefined;
}

interface Collected {
  dims: Dim[];
  rankBy?: ColRef;
  unknownGroup?: string;
}

export function collectDims(p: Parse, prefer: TableMeta | undefined): Collected {
  const out: Collected = { dims: [] };
  const add = (d: Dim): void => {
    if (out.dims.length < 2 && !out.dims.some((x) => x.col.column === d.col.column && x.grain === d.grain)) out.dims.push(d);
  };
  const ranking = p.cues.some((c) => c.kind === 'topN' || c.kind === 'superlative');
  for (const c of p.cues) {
    if (c.kind === 'grain') {
      const d = timeDim(p, prefer, c.grain);
      if (d) add(d);
      mark(p, c.at, c.end);
    } else if (c.kind === 'group') {
      const s = nextSpan(p, c.end, 2);
      if (s === undefined || p.taken.has(s)) {
        if (p.cues.some((x) => x.at === c.end)) continue;
        const word = p.tokens[c.end];
        if (s === undefined && word?.kind === 'word' && !STOP_WORDS.has(word.norm) && !ROW_WORDS.has(word.stem)) out.unknownGroup ??= word.raw;
        continue;
      }
      if (s.kind === 'column' && s.cols.some((x) => x.column.unique && isIdLike(x.column))) {
        // "average quantity per order" where each order is one row: an average over rows, no grouping.
        p.taken.add(s);
        continue;
      }
      const col = dimOfSpan(s, prefer);
      if (!col) continue;
      if (isNumeric(col.column) && (ranking || !isGroupable(col.column))) {
        out.rankBy = col;
        p.taken.add(s);
        continue;
      }
      p.taken.add(s);
      if (col.column.kind === 'temporal') {
        // "by signup year", "by order date month": a grain word after the date column sets the bucket.
        const g = GRAIN_NOUN[p.tokens[s.end]?.stem ?? ''];
        if (g !== undefined && p.tokens[s.end]?.stem !== 'date') mark(p, s.end, s.end + 1);
        add({ col, grain: g !== undefined && p.tokens[s.end]?.stem !== 'date' ? g : 'day' });
      } else add({ col });
      // "by region and channel"
      if (p.tokens[s.end]?.norm === 'and') {
        const s2 = nextSpan(p, s.end + 1, 1);
        const col2 = s2 !== undefined && !p.taken.has(s2) ? dimOfSpan(s2, prefer) : undefined;
        if (s2 && col2 && isGroupable(col2.column)) {
          p.taken.add(s2);
          add(col2.column.kind === 'temporal' ? { col: col2, grain: 'day' } : { col: col2 });
        }
      }
    }
  }
  if (out.dims.every((d) => d.grain === undefined) && p.cues.some((c) => c.kind === 'trend') && !p.cues.some((c) => c.kind === 'grain')) {
    const d = timeDim(p, prefer, undefined);
    if (d) add(d);
  }
  return out;
}

/** The aggregate a measure named at token `at` gets: the nearest cue before it, else the default. */
export function aggFor(p: Parse, at: number, name: string, dims: number, end?: number): Agg {
  let best: Agg | undefined;
  // "montant moyen": languages that put the aggregate after the noun.
  const after = end !== undefined ? p.cues.find((c) => c.kind === 'agg' && c.at === end && c.agg !== 'count') : undefined;
  if (after !== undefined && after.kind === 'agg' && !p.cues.some((c) => c.kind === 'agg' && c.end <= at)) return after.agg;
  const grouped = p.cues.some((c) => c.kind === 'group' || c.kind === 'grain');
  for (const c of p.cues) {
    if (c.end > at) break;
    if (c.kind === 'agg') best = c.agg;
    // "highest price" alone is a maximum; "peak temperature by site" is a maximum per group.
    if (c.kind === 'superlative' && (dims === 0 || (grouped && at - c.end <= 1)) && at - c.end <= 2) best = c.dir === 'desc' ? 'max' : 'min';
  }
  return best ?? defaultAgg(name);
}

/** A superlative read as a per-group max/min ("peak temperature by site") is not a ranking. */
function superlativeIsAggregate(p: Parse, sup: Extract<Cue, { kind: 'superlative' }>): boolean {
  const grouped = p.cues.some((c) => c.kind === 'group' || c.kind === 'grain');
  const next = p.spans.find((s) => s.start >= sup.end && s.start - sup.end <= 1);
  return grouped && next !== undefined && next.kind === 'column';
}

const FORECAST = /\b(forecast|forecasts|predict|predicted|prediction|projection|next (year|month|quarter|week|day)|will (be|reach|grow|increase|decrease)|in the future|tomorrow)\b/i;

function countTarget(p: Parse, c: Cue, prefer: TableMeta | undefined): { measure?: Measure; table?: TableMeta; unknown?: string } {
  // "how many remote employees", "how many online orders": adjectives (flags, values) are filters.
  const skipCues = (i: number): number => {
    let k = i;
    while (p.cues.some((x) => (x.kind === 'distinct' || x.kind === 'agg') && x.at === k)) k++;
    return k;
  };
  let s = nextSpan(p, skipCues(c.end), 3);
  while (s !== undefined && (s.kind === 'value' || (s.kind === 'column' && s.cols.every((x) => x.column.kind === 'boolean')))) {
    s = nextSpan(p, s.end, 2) ?? s;
    if (s.kind === 'value' || (s.kind === 'column' && s.cols.every((x) => x.column.kind === 'boolean'))) break;
  }
  if (s !== undefined && s.kind === 'column' && s.cols.every((x) => x.column.kind === 'temporal')) {
    // "how many reviews in 2024": a date column names events, one per row; it still picks the date.
    p.taken.add(s);
    return { measure: { agg: 'count' }, table: s.cols[0]?.table };
  }
  if (s !== undefined && s.kind === 'table') {
    p.taken.add(s);
    return { measure: { agg: 'count' }, table: s.table };
  }
  if (s !== undefined && s.kind === 'column' && !p.taken.has(s)) {
    const col = pickColumn(s, 'count', prefer);
    if (col) {
      p.taken.add(s);
      if (isNumeric(col.column) && !isIdLike(col.column)) return { measure: { agg: 'sum', col } };
      return col.column.unique ? { measure: { agg: 'count' }, table: col.table } : { measure: { agg: 'count_distinct', col } };
    }
  }
  const inCue = (t: Token): boolean => p.cues.some((x) => x.at <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < x.end);
  const word = p.tokens.slice(skipCues(c.end), skipCues(c.end) + 3).find((t) => t.kind === 'word' && !inCue(t) && !STOP_WORDS.has(t.norm) && !ROW_WORDS.has(t.stem) && t.norm.length >= 3 && !p.spans.some((x) => x.start <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < x.end) && !p.dates.some((d) => d.at <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < d.end));
  if (word !== undefined && (s === undefined || s.start > p.tokens.indexOf(word))) return { unknown: word.raw };
  return { measure: { agg: 'count' } };
}

export { parse as parseQuestion };
export type { Parse };

/** Understands one question against the selected tables. */
export function understand(question: string, tables: TableMeta[], index: MentionIndex): Understanding {
  if (tables.length === 0) return unanswerable('no table is selected');
  const p = parse(question, tables, index);
  return buildPlan(p);
}

/** Turns a parse into a plan (exported for follow-ups, which parse the refinement the same way). */
export function buildPlan(p: Parse): Understanding {
  if (FORECAST.test(p.question)) return unanswerable('the data holds past records only; forecasting future values is not something it can answer');
  const prefer = primaryTable(p);
  const chart = chartPref(p);
  const cmp = comparisons(p, prefer);
  const filters: Filter[] = [...cmp.filters];
  const values = valueFilters(p, prefer);
  filters.push(...values.filters, ...dateFilters(p, prefer), ...equalityFilters(p, prefer), ...noneFilters(p), ...absentFilters(p, tableSpan(p) ?? prefer, joinKey));
  const collected = collectDims(p, prefer);
  const dims = collected.dims;
  const years = filters.find((f): f is Extract<Filter, { kind: 'datePart' }> => f.kind === 'datePart' && f.part === 'year' && f.values.length > 1);
  if (years && !dims.some((d) => d.grain !== undefined)) dims.unshift({ col: years.col, grain: 'year' });
  for (const m of values.multi) {
    if (m.joiner !== 'or' && !dims.some((d) => d.col.column === m.col.column)) dims.unshift({ col: m.col });
  }
  const flags = booleanFilters(p, dims);
  // "remote vs office": a compared flag splits the result instead of filtering it.
  if (hasIntent(p, 'compare') && dims.length === 0 && flags.length === 1 && flags[0] !== undefined) dims.push({ col: flags[0].col });
  else filters.push(...flags);
  const lost = leftovers(p);
  const capitalUnknown = lost.find(({ i, t }) => i > 0 && /^\p{Lu}/u.test(t.raw) && ['in', 'for', 'from', 'at'].includes(p.tokens[i - 1]?.norm ?? ''));
  // A "not"/"without" that no filter used would otherwise be silently ignored: refuse instead.
  const negation = p.cues.find((c) => c.kind === 'negate' && !p.used.has(c.at));
  if (negation !== undefined) {
    const words = p.tokens.slice(negation.at, negation.end + 2).map((t) => t.raw).join(' ');
    return unanswerable(`I could not tell what "${words}" should exclude`, [words]);
  }
  if (cmp.unresolved.length > 0) return unanswerable(`the question does not say which number "${cmp.unresolved[0]}" applies to`, cmp.unresolved);
  if (collected.unknownGroup !== undefined) return unanswerable(`no column matches "${collected.unknownGroup}"`, [collected.unknownGroup]);
  if (capitalUnknown !== undefined) return unanswerable(`"${capitalUnknown.t.raw}" does not appear in the data`, [capitalUnknown.t.raw]);
  return assemble(p, prefer, { filters, dims, rankBy: collected.rankBy, chart, lost: lost.map((l) => l.t.raw) });
}

interface Parts {
  filters: Filter[];
  dims: Dim[];
  rankBy: ColRef | undefined;
  chart: ChartPref;
  lost: string[];
}

function numericSpans(p: Parse, prefer: TableMeta | undefined): Array<{ s: Span; col: ColRef }> {
  const out: Array<{ s: Span; col: ColRef }> = [];
  for (const s of p.spans) {
    if (s.kind !== 'column' || p.taken.has(s)) continue;
    const col = pickColumn(s, 'measure', prefer);
    if (col && isNumeric(col.column)) out.push({ s, col });
  }
  return out;
}

function assemble(p: Parse, prefer: TableMeta | undefined, parts: Parts): Understanding {
  const { filters, dims, chart } = parts;
  const intentOf = (i: Intent): boolean => hasIntent(p, i);
  const primary = prefer ?? p.tables[0];
  if (!primary) return unanswerable('no table is selected');
  const columnSpans = p.spans.filter((s): s is Extract<Span, { kind: 'column' }> => s.kind === 'column' && !p.taken.has(s));

  if (intentOf('missing')) {
    const col = columnSpans[0] ? pickColumn(columnSpans[0], 'dim', prefer) : undefined;
    return col ? { kind: 'missing', table: col.table, col, chart } : { kind: 'missing', table: primary, chart };
  }
  if (intentOf('duplicates')) {
    const cols = columnSpans.map((s) => pickColumn(s, 'count', prefer)).filter((c): c is ColRef => c !== undefined);
    const table = cols[0]?.table ?? tableSpan(p) ?? primary;
    return { kind: 'duplicates', table, cols: cols.filter((c) => c.table === table), chart };
  }
  if (intentOf('outliers')) {
    const cols = numericSpans(p, prefer).map((x) => x.col);
    const table = cols[0]?.table ?? primary;
    const all = table.columns.filter((c) => isNumeric(c) && !isIdLike(c)).map((column) => ({ table, column }));
    return { kind: 'outliers', table, cols: cols.length > 0 ? cols : all, filters, chart };
  }
  const nums = numericSpans(p, prefer);
  if (intentOf('correlation') || (intentOf('compare') && nums.length >= 2 && dims.length === 0 && !p.cues.some((c) => c.kind === 'agg'))) {
    const [x, y] = nums;
    if (x && y) return { kind: 'correlation', x: x.col, y: y.col, filters, chart };
    if (x) {
      const others = x.col.table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && c !== x.col.column).map((column) => ({ table: x.col.table, column }));
      if (others.length > 0) return { kind: 'correlationScan', target: x.col, others, filters, chart };
    }
    if (intentOf('correlation')) return unanswerable('a correlation needs two numeric columns, and the question names fewer', parts.lost);
  }
  if (intentOf('histogram') && dims.length === 0) {
    const s = columnSpans[0];
    const col = s ? pickColumn(s, 'measure', prefer) ?? pickColumn(s, 'dim', prefer) : parts.rankBy;
    if (col && isNumeric(col.column)) return { kind: 'histogram', col, filters, chart };
    if (col && col.column.kind === 'temporal') return aggregate(col.table, [{ agg: 'count' }], [timeDim(p, col.table, undefined) ?? { col, grain: 'month' }], filters, chart);
    if (col) return aggregate(col.table, [{ agg: 'count' }], [{ col }], filters, chart, 'desc');
    return unanswerable('the question does not say which column\'s distribution to show', parts.lost);
  }
  if (intentOf('overview') && nums.length === 0 && dims.length === 0 && filters.length === 0) {
    const t = tableSpan(p);
    return { kind: 'overview', tables: t ? [t] : p.tables, chart };
  }
  return measuresPlan(p, prefer, parts, columnSpans);
}

function tableSpan(p: Parse): TableMeta | undefined {
  const s = p.spans.find((x) => x.kind === 'table');
  return s?.kind === 'table' ? s.table : undefined;
}

function aggregate(base: TableMeta, measures: Measure[], dims: Dim[], filters: Filter[], chart: ChartPref, order?: 'desc' | 'asc'): Understanding {
  const plan: Plan = { kind: 'aggregate', base, measures, dims, filters, chart };
  if (order) plan.order = order;
  return checkJoins(plan);
}

export { measuresPlan };

function measuresPlan(p: Parse, prefer: TableMeta | undefined, parts: Parts, columnSpans: Array<Extract<Span, { kind: 'column' }>>): Understanding {
  const { filters, chart } = parts;
  const dims = [...parts.dims];
  const measures: Measure[] = [];
  let countTable: TableMeta | undefined;
  const topN = p.cues.find((c): c is Extract<Cue, { kind: 'topN' }> => c.kind === 'topN');
  const sup = p.cues.find((c): c is Extract<Cue, { kind: 'superlative' }> => c.kind === 'superlative');
  const ranking = topN !== undefined || sup !== undefined;
  const distinctCue = p.cues.find((c) => c.kind === 'distinct');
  // Counting: "how many", "number of", "count".
  for (const c of p.cues) {
    if (c.kind !== 'count' && !(c.kind === 'agg' && c.agg === 'count')) continue;
    const target = countTarget(p, c, prefer);
    if (target.unknown !== undefined) return unanswerable(`nothing in the data is called "${target.unknown}"`, [target.unknown]);
    if (target.measure) measures.push(distinctCue && target.measure.col ? { agg: 'count_distinct', col: target.measure.col } : target.measure);
    if (target.table) countTable = target.table;
  }
  // Ranked or grouped entities: "top 5 regions", "which product", "the most common category".
  if (dims.length === 0 && (ranking || p.cues.some((c) => c.kind === 'share'))) {
    for (const s of columnSpans) {
      if (p.taken.has(s)) continue;
      // "top 5 orders" where each order is a row: rank the rows themselves.
      if (s.cols.some((c) => c.column.unique && isIdLike(c.column))) continue;
      const col = pickColumn(s, 'dim', prefer);
      if (col && isGroupable(col.column) && !(isNumeric(col.column) && measures.length === 0 && !p.spans.some((x) => x !== s && x.kind === 'column' && !p.taken.has(x)))) {
        p.taken.add(s);
        dims.push(col.column.kind === 'temporal' ? { col, grain: 'day' } : { col });
        break;
      }
    }
  }
  // Measures: the numeric columns still unexplained.
  let entity = p.spans.some((s) => s.kind === 'table') || /^\s*who\b/i.test(p.question);
  for (const s of p.spans) {
    if (s.kind !== 'column' || p.taken.has(s)) continue;
    const distinctBefore = distinctCue !== undefined && distinctCue.end <= s.start && s.start - distinctCue.end <= 2;
    if (distinctBefore) {
      const col = pickColumn(s, 'count', prefer);
      if (col) {
        p.taken.add(s);
        if (!measures.some((m) => m.agg === 'count_distinct' && m.col?.column === col.column)) {
          const i = measures.findIndex((m) => m.agg === 'count' && m.col === undefined);
          if (i >= 0) measures.splice(i, 1);
          measures.push({ agg: 'count_distinct', col });
        }
      }
      continue;
    }
    const col = pickColumn(s, 'measure', prefer);
    if (col && isNumeric(col.column)) {
      p.taken.add(s);
      // "orders" naming order_id refers to the rows, unless an aggregate is asked of it explicitly.
      const explicit = p.cues.some((c) => c.kind === 'agg' && c.end <= s.start && s.start - c.end <= 1);
      if (isIdLike(col.column) && !explicit) {
        entity = true;
        continue;
      }
      measures.push({ agg: aggFor(p, s.start, col.column.name, dims.length, s.end), col });
    }
  }
  // "the hottest reading", "which site is the warmest": the superlative names the measure.
  if (measures.length === 0 && sup?.hint !== undefined) {
    const hint = new RegExp(sup.hint, 'i');
    const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
    const table = tables.find((t) => t.columns.some((c) => isNumeric(c) && !isIdLike(c) && hint.test(c.name)));
    const column = table?.columns.find((c) => isNumeric(c) && !isIdLike(c) && hint.test(c.name));
    if (table && column) {
      const col = { table, column };
      if (dims.length === 0 && !p.cues.some((c) => c.kind === 'count')) {
        const rowsContext = p.spans.some((s) => s.kind === 'table') || entity || p.tokens.some((t) => ROW_WORDS.has(t.stem));
        if (rowsContext) return rowsPlan(p, table, filters, parts, topN?.n ?? 1, { col, dir: sup.dir });
        measures.push({ agg: sup.dir === 'desc' ? 'max' : 'min', col });
      } else measures.push({ agg: defaultAgg(column.name), col });
    }
  }
  if (parts.rankBy && !measures.some((m) => m.col?.column === parts.rankBy?.column)) {
    measures.unshift({ agg: aggFor(p, p.tokens.length, parts.rankBy.column.name, dims.length), col: parts.rankBy });
  }
  // "top 5 customers by amount" where customers is another file: rank by its key in the measured table.
  const named = tableSpan(p);
  const measuredTable = measures.find((m) => m.col)?.col?.table;
  if (dims.length === 0 && ranking && named !== undefined && measuredTable !== undefined && named !== measuredTable) {
    const key = joinKey(measuredTable, named);
    if (key) dims.push({ col: { table: measuredTable, column: key.left } });
  }
  // A remaining category named without a cue groups the result ("revenue region-wise").
  if (dims.length === 0 && measures.length > 0) {
    for (const s of columnSpans) {
      if (p.taken.has(s)) continue;
      const col = pickColumn(s, 'dim', prefer);
      if (col && isGroupable(col.column) && col.column.kind !== 'numeric') {
        p.taken.add(s);
        dims.push(col.column.kind === 'temporal' ? { col, grain: 'day' } : { col });
        break;
      }
    }
  }
  const aggCue = p.cues.find((c) => c.kind === 'agg' && c.agg !== 'count');
  const share = p.cues.some((c) => c.kind === 'share');
  const table = tableSpan(p);
  const rowsIntent = p.cues.some((c) => c.kind === 'intent' && c.intent === 'rows');
  if (measures.length === 0) {
    if (aggCue !== undefined && !share) {
      return unanswerable(parts.lost.length > 0 ? `no numeric column matches "${parts.lost.join(' ')}"` : 'the question does not say which numeric column to use', parts.lost);
    }
    const listing = /^\s*(show|list|display|give me|find|get|which|what)\b/i.test(p.question) && (p.spans.length > 0 || filters.length > 0) && parts.lost.length === 0;
    if (rowsIntent || ((table !== undefined || entity || listing) && dims.length === 0 && !share && (filters.length > 0 || ranking || listing) && !p.cues.some((c) => c.kind === 'count'))) {
      const rowsTable = table ?? prefer ?? p.tables[0];
      // "the biggest order": rows ranked by their amount.
      const money = ranking && !p.tokens.some((t) => /^(recent|latest|newest|oldest|earliest)$/.test(t.norm)) ? moneyColumn(p, rowsTable) : undefined;
      const dir = topN?.dir ?? sup?.dir ?? 'desc';
      return rowsPlan(p, rowsTable, filters, parts, topN?.n ?? (money ? 1 : undefined), money && money.table === rowsTable ? { col: money, dir } : undefined);
    }
    if (dims.length === 0 && filters.length === 0 && !share && !ranking) {
      if (parts.lost.length > 0) return unanswerable(`nothing in the data matches "${parts.lost.join(' ')}"`, parts.lost);
      if (p.spans.length === 0 && p.dates.length === 0) return unanswerable('the question names no column, value or date of the data');
    }
    measures.push({ agg: 'count' });
  }
  // "top 5 orders by revenue" where orders are single rows: list the rows themselves.
  const rowTable = table ?? (entity ? measures[0]?.col?.table : undefined);
  if (rowTable !== undefined && dims.length === 0 && ranking && measures.length === 1 && measures[0]?.col && !share && measures[0].agg !== 'count') {
    const m = measures[0];
    if (m.col && m.col.table === rowTable && aggCue === undefined) {
      return rowsPlan(p, rowTable, filters, parts, topN?.n ?? 1, { col: m.col, dir: topN?.dir ?? sup?.dir ?? 'desc' });
    }
  }
  const base = countTable ?? measures.find((m) => m.col)?.col?.table ?? prefer ?? dims[0]?.col.table ?? p.tables[0];
  if (!base) return unanswerable('no table is selected');
  const plan: Plan = { kind: 'aggregate', base, measures, dims: dims.slice(0, 2), filters, chart };
  if (topN) {
    plan.order = topN.dir;
    plan.limit = topN.n;
  } else if (sup && dims.length > 0 && !superlativeIsAggregate(p, sup)) {
    plan.order = sup.dir;
    plan.limit = 1;
  } else if (dims.length > 0 && dims.every((d) => d.grain === undefined)) {
    plan.order = p.tokens.some((t) => t.norm === 'ascending' || t.norm === 'asc') ? 'asc' : 'desc';
  }
  if (share) {
    if (dims.length > 0) plan.share = true;
    else if (filters.length > 0) plan.shareOfFiltered = true;
    else return unanswerable('a share needs groups ("by channel") or a condition ("online orders")', parts.lost);
  }
  return checkJoins(plan);
}

/** A row count written in a listing: "show 10 rows", "10 sample rows". */
function listedCount(p: Parse): number | undefined {
  const t = p.tokens.find((x, i) => x.kind === 'number' && !x.yearLike && !p.used.has(i) && Number.isInteger(x.value) && (x.value ?? 0) >= 1 && (x.value ?? 0) <= 1000);
  return t?.value;
}

function rowsPlan(p: Parse, table: TableMeta | undefined, filters: Filter[], parts: Parts, n?: number, orderBy?: { col: ColRef; dir: 'desc' | 'asc' }): Understanding {
  if (!table) return unanswerable('no table is selected');
  const plan: Plan = { kind: 'rows', table, filters, limit: Math.min(n ?? listedCount(p) ?? 20, 1000), chart: parts.chart };
  if (orderBy) plan.orderBy = orderBy;
  else {
    // "the 5 most recent orders", "the oldest entries": order by the date.
    const recent = p.tokens.some((t) => /^(recent|latest|newest|last)$/.test(t.norm));
    const oldest = p.tokens.some((t) => /^(oldest|earliest|first)$/.test(t.norm));
    const date = recent || oldest ? dateColumn(p, table) : undefined;
    if (date && date.table === table) plan.orderBy = { col: date, dir: recent ? 'desc' : 'asc' };
  }
  return checkJoins(plan);
}

/** Every column must be in the measured table or in one that joins to it by a safe key. */
export function checkJoins(plan: Plan): Understanding {
  const refs: ColRef[] = [];
  if (plan.kind === 'aggregate') {
    for (const m of plan.measures) if (m.col) refs.push(m.col);
    for (const d of plan.dims) refs.push(d.col);
  }
  if (plan.kind === 'aggregate' || plan.kind === 'rows') for (const f of plan.filters) refs.push(f.col);
  if (plan.kind === 'rows' && plan.orderBy) refs.push(plan.orderBy.col);
  const measured = plan.kind === 'rows' ? plan.table : plan.kind === 'aggregate' ? plan.base : undefined;
  if (!measured) return plan;
  for (const r of refs) {
    if (r.table === measured) continue;
    if (!joinKey(measured, r.table)) {
      return unanswerable(`${r.column.name} is in ${r.table.label}, which shares no key column with ${measured.label}`);
    }
  }
  return plan;
}
