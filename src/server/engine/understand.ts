/**
 * Question understanding without a network: tokens -> cues and spans -> roles -> a {@link Plan},
 * or an honest {@link Unanswerable} naming what could not be placed. Deterministic: the same
 * question over the same data always gives the same plan.
 */
import { findCues, type Cue, type Intent } from './cues';
import { coordinateAggregates } from './coordinated';
import { findDateExprs } from './dates';
import { joinKey } from './joins';
import { ROW_WORDS } from './lexicon';
import { collectDims } from './groupings';
import { measuresPlan } from './measuresPlan';
import { askedWhen } from './rowsPlan';
import { findSpans, type MentionIndex, type Span } from './mentions';
import { absorbMeasureNouns, measureNounSpans, rowNounSpans } from './nouns';
import { chartPref, checkJoins, hasIntent, tableSpan, timeDim, unanswerable, positionInPeriod, withContrast, withoutUnaskedChange, withRate, type Parts } from './planKit';
import { absentFilters, booleanFilters, dateFilters, equalityFilters, knownFilters, noneFilters } from './filterRoles';
import {
  comparisons, dateColumn, isIdLike, isNumeric, mark, moneyColumn, pickColumn, primaryTable, valueFilters, type Parse,
} from './roles';
import { identifierWords, MONTHS, STOP_WORDS, tokenize, type Token } from './text';
import type { ChartPref, ColRef, ColumnMeta, Dim, Filter, Grain, Measure, Plan, TableMeta, Understanding } from './types';

/**
 * How one reading of a question resolves the words that could be read two ways. Each choice is a
 * separate candidate reading; `readings.ts` builds a plan for each and keeps the ones that explain
 * every word.
 */
export interface ParseChoice {
  /** Token positions given to cue words ("max" as an aggregate): kept out of column and value names. */
  cueWins?: ReadonlySet<number>;
  /** Token positions given to names ("max" of `load_max`): cues covering them are dropped. */
  nameWins?: ReadonlySet<number>;
  /** The column chosen for the column span starting at a token, where a name fits several columns. */
  pick?: ReadonlyMap<number, ColumnMeta>;
}

/** The column names a grain's bucket may already be stored under ("by month" and a `month` column). */
const GRAIN_UNIT: Partial<Record<Grain, RegExp>> = {
  year: /^(year|yr|yyyy)$/i, quarter: /^(quarter|qtr|q)$/i, quarterOfYear: /^(quarter|qtr|q)$/i, month: /^(month|mo|mm)$/i,
  monthOfYear: /^(month|mo|mm)$/i, week: /^(week|wk)$/i, day: /^(day|date)$/i, hour: /^(hour|hr)$/i, hourOfDay: /^(hour|hr)$/i,
  weekday: /^(weekday|day[ _]?of[ _]?week|dow)$/i, decade: /^decade$/i,
};

/** Drops spans that are really cue words, or turns cues into columns when the data has such a column. */
function reconcile(cues: Cue[], spans: Span[], choice: ParseChoice): { cues: Cue[]; spans: Span[] } {
  const keepCues: Cue[] = [];
  const dropSpans = new Set<Span>();
  for (const c of cues) {
    if (choice.nameWins !== undefined && [...choice.nameWins].some((k) => k >= c.at && k < c.end)) continue;
    const inside = spans.filter((s) => s.start >= c.at && s.end <= c.end);
    // The column of the grain's own unit ("quarter" for "by quarter of the year"), not another one inside the phrase.
    const unit = c.kind === 'grain' ? GRAIN_UNIT[c.grain] : undefined;
    const exact = inside.find((s) => s.kind === 'column' && s.exact && (unit === undefined || s.cols.some((x) => unit.test(x.column.name.trim()))));
    if (c.kind === 'grain' && exact !== undefined && exact.kind === 'column' && !exact.cols.some((x) => x.column.kind === 'temporal')) {
      // "by year" where the data has a `year` column: group by that column ("by quarter of the year":
      // the rest of the phrase only says which quarter is meant).
      keepCues.push({ kind: 'group', at: c.at, end: exact.start });
      for (const s of inside) if (s !== exact) dropSpans.add(s);
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
  return { cues: keepCues, spans: spans.filter((s) => !dropSpans.has(s)) };
}

/** Tokens as the name linker sees them: positions given to cues are blanked out. */
function linkTokens(tokens: Token[], cueWins: ReadonlySet<number> | undefined): Token[] {
  if (cueWins === undefined || cueWins.size === 0) return tokens;
  return tokens.map((t, i) => (cueWins.has(i) ? { ...t, kind: 'op', norm: '', stem: '' } : t));
}

/**
 * Positions where a cue word is also part of a name of the data ("max" in "max temperature" with a
 * `load_max` column): each group can be read either way, so readings try both.
 */
export function cueNameOverlaps(question: string, tables: TableMeta[], index: MentionIndex): number[][] {
  const tokens = tokenize(question);
  const spans = findSpans(tokens, tables, index);
  const out: number[][] = [];
  for (const c of findCues(tokens)) {
    if (c.kind === 'group' || c.kind === 'cmp' || c.kind === 'between' || c.kind === 'topN') continue;
    const s = spans.find((x) => x.start < c.end && x.end > c.at && x.kind !== 'table');
    if (s === undefined) continue;
    const group: number[] = [];
    for (let k = Math.max(c.at, s.start); k < Math.min(c.end, s.end); k++) group.push(k);
    if (group.length > 0) out.push(group);
  }
  return out;
}

function parse(question: string, tables: TableMeta[], index: MentionIndex, choice: ParseChoice = {}): Parse {
  const tokens = tokenize(question);
  const r = reconcile(findCues(tokens), findSpans(linkTokens(tokens, choice.cueWins), tables, index), choice);
  // "how many readings" in a table with a `reading` sequence column: the rows, not that column.
  r.spans = r.spans.filter((s) => !(s.kind === 'column' && s.end - s.start === 1 && tokens[s.start]?.norm !== tokens[s.start]?.stem
    && ROW_WORDS.has(tokens[s.start]?.stem ?? '') && s.cols.every((c) => identifierWords(c.column.name).join(' ') === tokens[s.start]?.stem)));
  if (choice.pick !== undefined) {
    for (const s of r.spans) {
      const c = s.kind === 'column' ? choice.pick.get(s.start) : undefined;
      if (c !== undefined && s.kind === 'column' && s.cols.some((x) => x.column === c)) s.cols = s.cols.filter((x) => x.column === c);
    }
  }
  const p: Parse = { question, tokens, cues: coordinateAggregates(tokens, r.cues, r.spans), spans: r.spans, dates: [], tables, used: new Set(), taken: new Set() };
  const blocked = new Set<number>();
  for (const c of p.cues) if (c.kind === 'cmp' && !c.postfix) blocked.add(c.end);
  for (const c of p.cues) if (c.kind === 'topN') for (let k = c.at; k < c.end; k++) blocked.add(k);
  for (const s of p.spans) for (let k = s.start; k < s.end; k++) if (s.kind === 'value') blocked.add(k);
  const dc = dateColumn(p, primaryTable(p));
  // "in march" in a table with a column per month (JAN ... DEC) and no months in its dates: that column.
  if (dc === undefined || dc.column.partsGrain === 'year') {
    for (const s of p.spans) {
      const t = tokens[s.start];
      if (s.kind !== 'column' || s.end - s.start !== 1 || t === undefined || MONTHS[t.norm] === undefined) continue;
      if (t.norm === 'may' && !/^(in|of|for|during)$/.test(tokens[s.start - 1]?.norm ?? '')) continue;
      if (s.cols.some((c) => MONTHS[identifierWords(c.column.name).join('')] === MONTHS[t.norm])) blocked.add(s.start);
    }
  }
  const latest = typeof dc?.column.max === 'string' ? dc.column.max : undefined;
  p.dates = findDateExprs(tokens, latest, blocked);
  // "sales by channel" in sales.csv means the money, not the rows, unless they are counted.
  for (const s of [...p.spans]) {
    if (s.kind !== 'table' || tokens[s.start]?.stem !== 'sale' || s.end - s.start !== 1) continue;
    if (p.cues.some((c) => (c.kind === 'count' || c.kind === 'share' || (c.kind === 'agg' && c.agg === 'count')) && c.end <= s.start && s.start - c.end <= 2)) continue;
    const money = moneyColumn(p, s.table);
    if (money) p.spans[p.spans.indexOf(s)] = { kind: 'column', start: s.start, end: s.end, score: s.score, cols: [money], exact: false };
  }
  // A year that names a column ("1990" in a table with a column per year) is that column when the
  // tables have no date to filter on.
  if (dc === undefined) {
    p.dates = p.dates.filter((d) => !p.spans.some((s) => s.kind === 'column' && s.end - s.start === 1 && s.start >= d.at && s.end <= d.end && p.tokens[s.start]?.kind === 'number'));
  }
  // Month names and years explained as dates are not column or value mentions.
  p.spans = p.spans.filter((s) => !p.dates.some((d) => s.start >= d.at && s.end <= d.end && s.kind !== 'value'));
  // "customer segment": a table name right before one of its columns only qualifies that column
  // (not after "how many": "how many teams play ..." counts the teams).
  for (const s of [...p.spans]) {
    if (s.kind !== 'table') continue;
    if (p.cues.some((c) => (c.kind === 'count' || (c.kind === 'agg' && c.agg === 'count')) && c.end === s.start)) continue;
    const c = p.spans.find((x) => x.kind === 'column' && x.start === s.end && x.cols.some((y) => y.table === s.table));
    if (c === undefined || c.kind !== 'column') continue;
    c.start = s.start;
    c.cols = c.cols.filter((y) => y.table === s.table);
    p.spans = p.spans.filter((x) => x !== s);
  }
  // "rate their marriage": one column named by two words with a little between them is one mention.
  for (let k = 0; k + 1 < p.spans.length; k++) {
    const a = p.spans[k];
    const b = p.spans[k + 1];
    if (a?.kind !== 'column' || b?.kind !== 'column' || a.cols.length !== 1 || b.cols.length !== 1 || a.cols[0]?.column !== b.cols[0]?.column) continue;
    const gap = p.tokens.slice(a.end, b.start);
    if (gap.length > 2 || !gap.every((t) => STOP_WORDS.has(t.norm))) continue;
    a.end = b.end;
    a.score = Math.max(a.score, b.score);
    p.spans.splice(k + 1, 1);
    k--;
  }
  // "by all firms", "across all regions": everything together, not one group each; the words are explained.
  for (const c of p.cues.filter((x) => x.kind === 'group' && p.tokens[x.end]?.norm === 'all')) {
    const s = p.spans.find((x) => x.start === c.end + 1 || (x.start === c.end + 2 && p.tokens[c.end + 1]?.norm === 'the'));
    if (s !== undefined && s.kind !== 'value') {
      p.spans = p.spans.filter((x) => x !== s);
      mark(p, c.at, s.end);
    }
    p.cues = p.cues.filter((x) => x !== c);
  }
  absorbMeasureNouns(p);
  measureNounSpans(p);
  rowNounSpans(p);
  return p;
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


const FORECAST = /\b(forecast|forecasts|predict|predicted|prediction|projection|next (year|month|quarter|week|day)|will (be|reach|grow|increase|decrease)|in the future|tomorrow)\b/i;

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
  const within = positionInPeriod(p);
  if (within !== undefined) return unanswerable(`"${within}" names a part of a period I cannot place yet; ask with its dates instead ("from … to …")`);
  const prefer = primaryTable(p);
  const chart = chartPref(p);
  const cmp = comparisons(p, prefer);
  const filters: Filter[] = [...cmp.filters];
  const values = valueFilters(p, prefer);
  filters.push(...values.filters, ...dateFilters(p, prefer), ...equalityFilters(p, prefer), ...noneFilters(p), ...knownFilters(p), ...absentFilters(p, tableSpan(p) ?? prefer, joinKey));
  // "average ozone in may" over a table with no dates: a date nothing can filter on is not dropped.
  const unplaced = p.dates.find((d) => !Array.from({ length: d.end - d.at }, (_, k) => d.at + k).some((k) => p.used.has(k)));
  if (unplaced !== undefined) return unanswerable(`"${unplaced.label}" is a date, and no column of ${prefer?.label ?? 'the data'} holds dates (or months or years) to filter on`, [unplaced.label]);
  const collected = collectDims(p, prefer);
  const dims = collected.dims;
  const years = filters.find((f): f is Extract<Filter, { kind: 'datePart' }> => f.kind === 'datePart' && f.part === 'year' && f.values.length > 1);
  if (years && !dims.some((d) => d.grain !== undefined)) dims.unshift({ col: years.col, grain: 'year' });
  for (const m of values.multi) {
    if (m.joiner !== 'or' && !dims.some((d) => d.col.column === m.col.column)) dims.unshift({ col: m.col });
  }
  const flags = booleanFilters(p, dims);
  // "remote vs office", "online vs offline": a compared flag splits the result instead of filtering it.
  const flagCols = [...new Set(flags.map((f) => f.col.column))];
  if (hasIntent(p, 'compare') && dims.length === 0 && flagCols.length === 1 && flags[0] !== undefined) dims.push({ col: flags[0].col });
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
    // "which columns have missing values": every column, whatever "values" could name.
    const perColumn = p.tokens.some((t) => t.stem === 'column' || t.norm === 'columns');
    const col = columnSpans[0] && !perColumn ? pickColumn(columnSpans[0], 'dim', prefer) : undefined;
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
  return withRate(p, withContrast(p, withoutUnaskedChange(p, askedWhen(p, parts, measuresPlan(p, prefer, parts, columnSpans)))));
}

function aggregate(base: TableMeta, measures: Measure[], dims: Dim[], filters: Filter[], chart: ChartPref, order?: 'desc' | 'asc'): Understanding {
  const plan: Plan = { kind: 'aggregate', base, measures, dims, filters, chart };
  if (order) plan.order = order;
  return checkJoins(plan);
}

