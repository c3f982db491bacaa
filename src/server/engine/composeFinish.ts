/**
 * The last step of reading a question: rankings ("which region has the highest revenue", "top 5
 * cities by revenue", "the heaviest car"), shares and comparisons set on the draft, bare
 * columns placed, the kind of answer chosen (figures or rows), and the data's shape applied.
 */
import { pickCol, type Chooser } from './choose';
import { dimOf, type Composition } from './compose';
import { joinKey } from './joins';
import { rankingOf, wordsOf, type Ranking } from './composeRanking';
import { planOf } from './composePlan';
import type { Tok } from '../language/tokens';
import type { Part } from './parts';
import { aggIsSure, aggOfWords, dateColumnOf, defaultAgg, isGroupable, isIdLike, isNumeric, labelColumnOf, measureKey, timeNamed, yearColumnOf } from './shape';
import type { ChartPref, ColRef, Dim, Filter, Grain, Measure, Plan, TableMeta } from './types';

type Body<K extends Part['k']> = Extract<Part, { k: K }>;

export interface Draft {
  table: TableMeta;
  measures: Measure[];
  dims: Dim[];
  filters: Filter[];
  used: Set<Part>;
  chart: ChartPref;
  ranks: Array<Body<'rank'> | Body<'top'>>;
  bare: Array<Body<'col'>>;
  which?: Body<'which'>;
  share?: Body<'share'>;
  compare?: Body<'compare'>;
  order?: Body<'order'>;
  listing?: boolean;
  rowsTable?: TableMeta;
  rowsPart?: Body<'rows'>;
  /** "survival rate": the yes/no column whose share of the rows is asked. */
  rateOf?: ColRef;
  countPart?: Body<'count'>;
  counted?: ColRef;
  rankBy?: ColRef;
  unitGrain?: Grain;
  /** A grouping was asked with by/per/each (not "which" or "top"). */
  groupedBy?: boolean;
  /** "within each region": a share is taken inside each group. */
  within?: boolean;
  /** The date column the question names ("started in 2020"), for its times and time groupings. */
  date?: ColRef;
  /** The question's tokens (for where its verbs are). */
  tokens?: readonly Tok[];
  /** "peak GNP, and the year?": the row behind the extreme. */
  askWhen?: boolean;
  /** "on average", "in total" said of a ranking's measure. */
  adverbAgg?: Measure['agg'];
  /** "average monthly total": the measure summed per bucket, then averaged. */
  perBucket?: { col: ColRef; grain: Grain };
}

type Fail = (why: string, ps?: Part[]) => Composition;

/** Whether two tables can be read together: the measured one and one it points at. */
function checkJoins(plan: Plan): Plan | string {
  const refs: ColRef[] = [];
  if (plan.kind === 'aggregate') {
    for (const m of plan.measures) if (m.col) refs.push(m.col);
    for (const d of plan.dims) refs.push(d.col);
  }
  if (plan.kind === 'aggregate' || plan.kind === 'rows') for (const f of plan.filters) refs.push(f.col);
  if (plan.kind === 'rows' && plan.orderBy) refs.push(plan.orderBy.col);
  let measured = plan.kind === 'rows' ? plan.table : plan.kind === 'aggregate' ? plan.base : undefined;
  if (measured === undefined) return plan;
  const others = [...new Set(refs.map((r) => r.table))].filter((t) => t !== measured);
  if (plan.kind === 'aggregate' && others.some((t) => measured !== undefined && !joinKey(measured, t))) {
    const fact = others.find((t) => [measured, ...others].every((o) => o === t || joinKey(t, o as TableMeta) !== undefined));
    if (fact !== undefined) {
      plan.base = fact;
      measured = fact;
    }
  }
  for (const r of refs) {
    if (r.table !== measured && !joinKey(measured, r.table)) return `${r.column.name} is in ${r.table.label}, which shares no key column with ${measured.label}`;
  }
  return plan;
}

export function finishPlan(d: Draft, ch: Chooser, live: readonly Part[], fail: Fail): Composition {
  const rankPart = d.ranks[0];
  let showFromRank: ColRef | undefined;
  // "the most unemployed", "the navy budget largest": a superlative alone and one with its column are one ranking.
  const bare = d.ranks.find((p) => p.k === 'rank' && p.cols === undefined && p.rows === undefined && p.attr === undefined && p.mode !== true && p.counted !== true);
  const full = d.ranks.find((p) => p !== bare && p.k === 'rank');
  // ("the gap between best and worst": two superlatives pulling apart are two extremes, never one ranking.)
  const apart = bare?.k === 'rank' && full?.k === 'rank' && bare.dir !== full.dir && full.attr === undefined && bare.attr === undefined;
  if (d.ranks.length === 2 && bare?.k === 'rank' && full?.k === 'rank' && !apart) d.ranks = [{ ...full, dir: bare.dir === full.dir ? full.dir : full.attr !== undefined ? bare.dir : full.dir }];
  // "top 5 biggest cities": the count from the top, the direction (and column) from the superlative.
  const topPart = d.ranks.find((p) => p.k === 'top');
  const supPart = d.ranks.find((p) => p.k === 'rank');
  if (d.ranks.length === 2 && topPart?.k === 'top' && supPart?.k === 'rank' && topPart.by === undefined) {
    d.ranks = [{ ...supPart, ...(topPart.dim !== undefined ? { dim: topPart.dim } : {}), n: topPart.n } as Body<'rank'>];
  }
  if (d.ranks.length > 1) return fail('two rankings in one question', d.ranks.slice(1));
  let rank: Ranking | undefined;
  if (rankPart !== undefined) {
    const r = rankingOf(ch, d, rankPart);
    if (typeof r === 'string') return fail(r, [rankPart]);
    rank = r;
    if (rank.dim !== undefined) d.dims.unshift(rank.dim);
    if (rank.show !== undefined) showFromRank = rank.show;
  }
  if (d.rankBy !== undefined) {
    const by = d.rankBy;
    if (rank === undefined) return fail(`${by.column.name} is a number, and the question does not say how to rank by it`, live.filter((p) => p.k === 'group'));
    // ("lowest price per hp": a ranking already by price is no ranking by hp; the ratio is its own reading.)
    if (rank.by?.col !== undefined && rank.by.col.column !== by.column) return fail(`the ranking is by ${rank.by.col.column.name}, not by ${by.column.name}`, live.filter((p) => p.k === 'group'));
    rank.by ??= { agg: defaultAgg(by.column), col: by };
  }
  // The answer of "which X": a grouping; of "which car", "who", "when": rows.
  const which = d.which;
  let show: ColRef | undefined = showFromRank;
  if (which !== undefined) {
    const asked = which.dim?.d === 'col' ? pickCol({ ...ch, cost: 0 }, which.dim.col, 'dim') : undefined;
    if (asked !== undefined && which.dim?.d === 'col' && isNumeric(asked.column) && !isGroupable(asked.column) && rank === undefined && !timeNamed(asked.column)) {
      // "which county is fips 37063": the rows the condition picks, with that column (never its total).
      if (d.filters.length > 0 && d.measures.length === 0 && asked.column.unique) show = asked;
      else d.bare.push({ k: 'col', col: which.dim.col, from: which.from, to: which.to, cost: 0 });
      d.which = undefined;
    } else if (which.dim !== undefined && rank?.rows === true && rank.n === undefined && which.dim.d === 'col' && asked !== undefined && d.ranks.some((r) => r.from < which.from)) {
      // "heaviest penguin - which one and what species": the species of that one row.
      show = asked;
    } else if (which.dim !== undefined) {
      const dim = dimOf(ch, which.dim, d.table);
      if (dim === 'rows') d.rowsTable ??= which.dim.d === 'rows' ? which.dim.rows.alts[0]?.table : undefined;
      else if (typeof dim === 'string') return fail(dim, [which]);
      // ("which year" over unique dates is still by year: only a column's own values are one per row.)
      else if (!d.dims.some((x) => x.col.column === dim.col.column)) d.dims.unshift(dim.col.column.unique && which.dim.d !== 'grain' ? { col: dim.col } : dim);
    } else if (which.who === 'when') {
      show = d.date ?? dateColumnOf(d.table) ?? d.table.columns.filter((c) => /year|date|time/i.test(c.name)).map((column) => ({ table: d.table, column }))[0];
      if (show === undefined) return fail(`${d.table.label} has no date to say when`, [which]);
    } else if (which.who === 'who') {
      show = labelColumnOf(d.table);
      if (show === undefined) return fail(`${d.table.label} has no column of names to say who`, [which]);
    }
    if (which.n !== undefined) (rank ??= { dir: 'desc', rows: false, plain: false, dateOrder: false }).n = which.n;
  }
  // Bare columns: the first number is the measure (or what is ranked), a category groups.
  for (const b of d.bare) {
    // A column a condition is already about ("Spanish one of the languages") is explained by it.
    if (b.col.alts.some((a) => a.cost <= 0.3 && d.filters.some((f) => f.col.column === a.ref.column && f.kind !== 'cmp' && f.kind !== 'between')) && !b.col.alts.some((a) => isNumeric(a.ref.column) && a.cost <= 0.3)) {
      d.used.add(b);
      continue;
    }
    const empty = b.col.alts.find((a) => a.ref.column.nonNull === 0 && a.cost < 0.5);
    if (empty !== undefined) return fail(`${empty.ref.column.name} is empty in every row: there is no number to give`, [b]);
    const num = pickCol({ ...ch, cost: 0 }, b.col, 'measure');
    // Beside a count of rows, or a measure said with its aggregate, a number nobody asked to combine
    // is not added up ("how many twins were born", "avg temperature of the readings").
    const counting = (d.measures.some((m) => m.agg === 'count' && m.col === undefined) || live.some((p) => p.k === 'measure')) && rank === undefined;
    if (num !== undefined && isNumeric(num.column) && !isIdLike(num.column) && !counting) {
      const col = pickCol(ch, b.col, 'measure') as ColRef;
      // "max wage and who earns it": the ranked number said again is the same number.
      if (rank?.by?.col?.column === col.column) {
        d.used.add(b);
        continue;
      }
      // "cheapest price per hp": the adjective's column over another is what is ranked.
      if (col.column.ratio === true && rank?.attr === true && rank.by?.col?.column.name === col.column.derived?.[0]) {
        rank.by = { agg: rank.by?.agg ?? 'avg', col };
        d.used.add(b);
        continue;
      }
      // "how long did the oldest patient survive": the survival of the row the adjective ranks first.
      if (rank?.attr === true && rank.by?.col !== undefined && rank.n === undefined && d.dims.length === 0 && d.which === undefined && show === undefined) {
        rank.rows = true;
        show = col;
        d.used.add(b);
        continue;
      }
      // "when was co2 first recorded": the value shown on the first row in time, not what ranks it.
      if (rank !== undefined && rank.dateOrder && rank.by === undefined && rank.show === undefined && !timeNamed(col.column) && dateColumnOf(d.table) !== undefined) {
        rank.rows = true;
        rank.show = col;
      } else if (rank !== undefined && rank.by === undefined && rank.mode === undefined) {
        const word = rankPart?.k === 'rank' ? rankPart.word : '';
        if (timeNamed(col.column) && /^(best|worst|better|worse)$/.test(word)) return fail(`"${word}" does not say which figure makes a ${col.column.name} better or worse`, [b]);
        // "which year was the lowest": the year asked for is not what ranks it (an earlier answer's figure may be).
        if (/^(which|what)$/.test(ch.tokens?.[b.from - 1]?.norm ?? '') && timeNamed(col.column)) return fail(`"${word}" does not say which figure ranks the ${col.column.name}s`, [b]);
        // "the highest failure rate" over `fails`: the question's words say it is a level.
        rank.by = { agg: aggOfWords(wordsOf(ch, b)) ?? defaultAgg(col.column), col };
      }
      else if (!d.measures.some((m) => m.col?.column === col.column)) {
        // A number whose total and average are equally likely meant (`Bfat` men vs women): both.
        // The average leads for decimals, which are rarely amounts once their name says nothing.
        const said = wordsOf(ch, b);
        const sure = aggIsSure(col.column, said) || d.adverbAgg !== undefined || live.some((p) => p.k === 'share');
        const agg = aggOfWords(said) ?? (sure ? defaultAgg(col.column) : /INT/i.test(col.column.type) ? 'sum' : 'avg');
        d.measures.push({ agg, col });
        if (!sure) d.measures.push({ agg: agg === 'sum' ? 'avg' : 'sum', col });
      }
      d.used.add(b);
      continue;
    }
    const dim = pickCol({ ...ch, cost: 0 }, b.col, 'dim');
    // "how many birds were counted" meeting `count`: a verb is what happened to the rows, never a
    // grouping (it may still say what to show of a row: "oldest patient when accepted").
    const verb = b.to - b.from === 1 && ch.tokens?.[b.from]?.pos === 'VERB' && !(rank?.rows === true || which?.who !== undefined);
    if (dim !== undefined && !verb && (isGroupable(dim.column) || dim.column.kind === 'text') && !d.dims.some((x) => x.col.column === dim.column)) {
      const col = pickCol(ch, b.col, 'dim') as ColRef;
      ch.cost += 0.5;
      if (rank?.rows === true || which?.who !== undefined) show ??= col;
      else d.dims.push(col.column.kind === 'temporal' ? { col, grain: 'day' } : { col });
      d.used.add(b);
      continue;
    }
    // A reason is plain text (the answer escapes it as Markdown): backticks here showed as "\`".
    return fail(`read as "${b.col.alts[0]?.ref.column.name ?? ''}", it does not fit one calculation with the rest of the question`, [b]);
  }
  if (d.adverbAgg !== undefined) {
    // "which firm invested the most in total", "which occupation pays the most on average".
    if (rank?.by?.col !== undefined && rank.explicitAgg !== true) rank.by = { agg: d.adverbAgg, col: rank.by.col };
    else if (d.measures.length === 1 && d.measures[0]?.col !== undefined) d.measures[0] = { agg: d.adverbAgg, col: d.measures[0].col };
  }
  if (d.askWhen === true) {
    // "peak GNP, and the year?": the row holding the extreme, with its date.
    show ??= dateColumnOf(d.table) ?? d.table.columns.filter((c) => /year|date|time/i.test(c.name)).map((column) => ({ table: d.table, column }))[0];
    if (rank !== undefined) rank.rows = true;
    else if (d.measures.length === 1 && (d.measures[0]?.agg === 'max' || d.measures[0]?.agg === 'min') && d.measures[0].col !== undefined) {
      rank = { dir: d.measures[0].agg === 'max' ? 'desc' : 'asc', by: { agg: 'sum', col: d.measures[0].col }, rows: true, plain: false, dateOrder: false };
      d.measures = [];
    } else return fail('"and when" asks for the row behind one extreme', live.filter((p) => p.k === 'which'));
  }
  const unused = live.filter((p) => !d.used.has(p) && !(p.k === 'rank' || p.k === 'top' || p.k === 'edit' || p.k === 'compare'));
  if (unused.length > 0) return fail('words no part of the reading uses', unused);
  if (rank !== undefined && rank.by === undefined && rank.mode === undefined && d.measures.length === 0 && !(rank.rows && rank.n !== undefined) && !rank.dateOrder) {
    // "which year had the most" over a table with nothing to measure (a list of holidays): its rows.
    const measured = d.table.columns.some((c) => isNumeric(c) && !isIdLike(c) && !timeNamed(c) && c.derived === undefined);
    if (measured || (rank.dim === undefined && d.dims.length === 0) || rank.rows === true) return fail('the question does not say what to rank by', d.ranks);
    rank.by = { agg: 'count' };
  }
  // "newest emojis" in a table without dates: neither the rows in file order nor the commonest name are the newest.
  const dated = (t: TableMeta): boolean => dateColumnOf(t) !== undefined || t.columns.some(timeNamed);
  if (rank?.dateOrder === true && rank.by === undefined && rank.mode === undefined && d.measures.length === 0 && !dated(d.rowsTable ?? d.table)) {
    return fail(`${(d.rowsTable ?? d.table).label} has no date to tell the newest or latest rows`, d.ranks);
  }
  // "discovered first" over years written with "Ancient" among them: the order cannot place those rows.
  const ranked = rank?.by?.col;
  const knownOnly = ranked !== undefined && d.filters.some((f) => f.kind === 'null' && !f.isNull && f.col.column === ranked.column);
  if (ranked !== undefined && (ranked.column.unreadable ?? 0) > 0 && rank?.by?.agg !== 'count' && !knownOnly) {
    return fail(`${ranked.column.unreadable} values of ${ranked.column.name} are not numbers ("${ranked.column.unreadableExample ?? ''}"), and a ranking cannot place them`, d.ranks);
  }
  // "fastest 100m", "who was fastest in the 400m" over times in seconds: the fastest is the shortest time.
  if (rank?.pace === true && rank.by?.col !== undefined && !/(speed|velocity|mph|kph|kmh|km_?h|knots)/i.test(rank.by.col.column.name)) rank.dir = rank.dir === 'desc' ? 'asc' : 'desc';
  const plan = planOf(d, rank, show, live);
  if (typeof plan === 'string') return fail(plan, live.filter((p) => p.k === 'rank' || p.k === 'top' || p.k === 'compare' || p.k === 'share'));
  const mixed = mixedMeasures(plan);
  if (mixed !== undefined) return fail(mixed);
  // "dead vs healthy trees" read as "dead" by `tree_health`: one side of the comparison is lost.
  const vs = live.find((p) => p.k === 'compare');
  if (vs !== undefined && plan.kind === 'aggregate' && plan.dims.some((x) => plan.filters.some((f) => f.kind === 'in' && !f.negate && f.values.length === 1 && f.col.column === x.col.column))) {
    return fail('one side of the comparison names no value', [vs]);
  }
  // "when was hale-bopp discovered" in a table with no date of discovery: its row is not a when.
  const asked = d.rowsTable ?? d.table;
  const timed = asked.columns.some((c) => c.kind === 'temporal' || timeNamed(c)) || yearColumnOf(asked) !== undefined;
  if (/^when$/i.test(d.tokens?.[0]?.norm ?? '') && !timed) return fail(`the question asks when, and ${asked.label} holds no dates or years`);
  const checked = checkJoins(plan);
  return typeof checked === 'string' ? fail(checked) : { ok: true, plan: checked, cost: ch.cost };
}


/**
 * "which country had the most manufacturing workers" over a long table whose `Variable` holds VA and
 * EMP: `MAN` of both kinds of rows added or ranked together mixes money with persons.
 */
function mixedMeasures(plan: Plan): string | undefined {
  const measured = plan.kind === 'aggregate' ? plan.measures.flatMap((m) => (m.col !== undefined ? [m.col] : [])) : plan.kind === 'rows' && plan.orderBy !== undefined ? [plan.orderBy.col] : [];
  const table = measured[0]?.table;
  const key = table !== undefined ? measureKey(table) : undefined;
  if (key === undefined || !measured.some((c) => isNumeric(c.column) && c.column !== key.column && c.column.keyedBy === undefined) || (plan.kind !== 'aggregate' && plan.kind !== 'rows')) return undefined;
  const one = plan.filters.some((f) => f.col.column === key.column && ((f.kind === 'in' && !f.negate && f.values.length === 1) || f.kind === 'contains'));
  const split = plan.kind === 'aggregate' && plan.dims.some((x) => x.col.column === key.column);
  return one || split ? undefined : `each row's numbers are one \`${key.column.name}\` (${(key.column.values ?? []).slice(0, 6).join(', ')}): the question does not say which`;
}
