/**
 * The ranking a superlative or a top N asks for ("the heaviest car", "top 5 stores by revenue",
 * "the warmest year"): which way, how many, and by what, from the words and the table's shape.
 */
import { pickCol, type Chooser } from './choose';
import { dimOf, rowsGrain } from './compose';
import type { Draft } from './composeFinish';
import { verbFile } from '../language/concepts';
import type { Part } from './parts';
import { aggOfWords, dateColumnOf, defaultAgg, isFlag, isIdLike, moneyColumn, soleMeasure, timeNamed } from './shape';
import type { ColRef, Dim, Grain, Measure } from './types';

type Body<K extends Part['k']> = Extract<Part, { k: K }>;

/** The ranking a rank or top part asks for: which way, how many, and by what (if it says). */
export interface Ranking {
  dir: 'desc' | 'asc';
  n?: number;
  by?: Measure;
  /** Rows are ranked ("the heaviest car"), not groups. */
  rows: boolean;
  mode?: ColRef;
  dim?: Dim;
  /** Said with max/min/maximum/minimum: a figure, not the row behind it. */
  plain: boolean;
  dateOrder: boolean;
  /** "fastest", "slowest": over a time rather than a speed, the order runs the other way. */
  pace?: boolean;
  explicitAgg?: boolean;
  attr?: boolean;
  /** A column to show of the ranked row ("record sunspot year"). */
  show?: ColRef;
  /** Said beside "by"/"per" ("peak temperature by site"): each group's extreme, not a ranking. */
  grouped?: boolean;
}

/** Names of columns of amounts, which add up over a group's rows. */
const AMOUNT_NAMED = /(pop|count|number|total|amount|revenue|sales|income|spend|cost|value|sum|gdp)/i;

/** Time buckets from fine to coarse (cyclic ones are no coarser than a row). */
const COARSE: Grain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'decade'];

export function rankingOf(ch: Chooser, d: Draft, p: Body<'rank'> | Body<'top'>): Ranking | string {
  const out: Ranking = { dir: p.dir, rows: false, plain: false, dateOrder: false };
  if (p.k === 'top') out.n = p.n;
  if (p.k === 'rank' && (p as { n?: number }).n !== undefined) out.n = (p as { n?: number }).n;
  if (p.k === 'rank' && p.dim !== undefined) {
    const dim = dimOf(ch, p.dim, d.table);
    if (dim === 'rows') out.rows = true;
    else if (typeof dim !== 'string') out.dim = dim;
  }
  if (p.k === 'rank' && p.when === true) {
    const date = d.date ?? dateColumnOf(d.table);
    const each = rowsGrain(d.table);
    if (date !== undefined && p.grain !== undefined && each !== undefined && COARSE.indexOf(p.grain) > COARSE.indexOf(each)) {
      // "the warmest year" of monthly readings: years ranked by their months.
      out.dim = { col: date, grain: p.grain };
    } else {
      // "the coldest day": the row, and its date.
      out.rows = true;
      out.show = date;
    }
  }
  const measureOf = (aggs: readonly Measure['agg'][] | undefined, col: ColRef): Measure => ({ agg: aggs?.[0] ?? defaultAgg(col.column), col });
  if (p.k === 'rank') {
    out.plain = /^(max|min|maximum|minimum)$/.test(p.word);
    out.dateOrder = /^(latest|newest|recent|earliest)$/.test(p.word);
    out.pace = /^(fast|quick|slow)(est|er)?$/.test(p.word);
    if (p.mode === true) {
      const c = p.cols?.[0];
      const col = c !== undefined ? pickCol(ch, c, 'dim') : undefined;
      if (col === undefined) return 'the most common what';
      out.mode = col;
      return out;
    }
    if (p.cols !== undefined && p.cols.length > 0) {
      const col = pickCol(ch, p.cols[0] as NonNullable<typeof p.cols>[number], 'measure');
      if (col === undefined) return 'nothing numeric to rank by';
      // "the most customers" naming `customer_id`: the customers counted, not their ids added up.
      // "latest co2 reading": the value of the last row in time, not the highest value.
      if (out.dateOrder && p.aggs === undefined && dateColumnOf(d.table) !== undefined && !timeNamed(col.column)) {
        out.rows = true;
        out.show = col;
      } else if (isIdLike(col.column) && !col.column.unique && p.aggs === undefined && p.rows === undefined && d.which === undefined && d.dims.length === 0) {
        // "largest school" over `School` codes repeated per student: the school with the most rows.
        out.dim = { col };
        out.by = { agg: 'count' };
      } else if (isIdLike(col.column) && p.aggs === undefined) out.by = col.column.unique ? { agg: 'count' } : { agg: 'count_distinct', col };
      // "record sunspot year": the year is what is asked of the record row, not what ranks it.
      else if (timeNamed(col.column) && !out.dateOrder && p.aggs === undefined && /^(busiest|quietest)$/.test(p.word)) {
        // "busiest year": the year with the most rows (events), not a row of the busiest kind.
        out.dim = { col };
        out.by = { agg: 'count' };
        if (p.word === 'quietest') out.dir = 'asc';
      } else if (timeNamed(col.column) && !out.dateOrder && p.aggs === undefined) {
        out.rows = true;
        out.show = col;
      }
      else {
        // "the highest failure rate" over `fails`: the question's words say it is a level.
        const span = p.cols[0] as { from: number; to: number };
        const said = aggOfWords(wordsOf(ch, span));
        out.by = p.aggs === undefined && said !== undefined ? { agg: said, col } : measureOf(p.aggs, col);
      }
      // "the most transplants" over a 0/1 `transplant`: no row is more of a yes than another.
      if (isFlag(col.column) && p.aggs === undefined && (out.rows || p.rows !== undefined || d.which?.dim?.d === 'rows' || (d.which?.dim === undefined && d.dims.length === 0))) return 'a yes/no column ranks no rows';
      out.explicitAgg = p.aggs !== undefined;
      out.grouped = d.groupedBy === true;
      // "which mote recorded the highest temperature": one reading, the extreme of each group.
      const by = out.by;
      if (p.aggs === undefined && d.which !== undefined && by?.col !== undefined && recordVerb(d, p)) out.by = { agg: out.dir === 'desc' ? 'max' : 'min', col: by.col };
    }
    if (p.rows !== undefined) {
      out.rows = true;
      d.rowsTable ??= p.rows.alts[0]?.table;
    }
    if (p.show !== undefined) {
      const shown = pickCol(ch, p.show, 'dim');
      if (shown === undefined) return 'nothing to show of the row';
      out.rows = true;
      out.show = shown;
    }
    if (p.counted === true) out.by = { agg: 'count' };
  } else {
    if (p.dim !== undefined) {
      const dim = dimOf(ch, p.dim, d.table);
      if (dim === 'rows') out.rows = true;
      else if (typeof dim === 'string') return dim;
      else out.dim = dim;
    }
    if (p.rows !== undefined) out.rows = true;
    if (p.by?.counted === true) out.by = { agg: 'count' };
    else if (p.by?.col !== undefined) {
      const col = pickCol(ch, p.by.col, 'measure');
      if (col === undefined) return 'nothing numeric to rank by';
      out.by = measureOf(p.by.aggs, col);
      out.explicitAgg = p.by.aggs !== undefined;
    }
  }
  // "the biggest order", "top 5 orders": rows ranked with no column named are ranked by their amount.
  // ("which make has the most cars": a count per make.)
  // ("the heaviest penguin, and its species": by weight, the attribute the adjective names.)
  if (out.rows && out.by === undefined && p.attr === undefined && (d.which?.dim !== undefined || d.dims.length > 0 || (p.k === 'top' && p.dim !== undefined))) out.by = { agg: 'count' };
  // Only words of size say "by its amount" ("the biggest order", "top 5"); "worst year", "safest
  // place" name a quality no figure was said for, so none is assumed.
  const sized = p.k === 'top' || /^(big|large|small|great|huge|tiny|high|low|top|record|max|min|maximum|minimum|expensive|cheap|costly)/.test(p.word);
  if (out.rows && out.by === undefined && p.attr === undefined && !out.dateOrder && sized) {
    // ... or, in a table of one measure ("record sunspot year"), by that measure.
    const money = moneyColumn(d.rowsTable ?? d.table) ?? soleMeasure(d.rowsTable ?? d.table);
    if (money !== undefined) out.by = { agg: 'sum', col: money };
  }
  const attr = p.attr?.alts.slice().sort((a, b) => a.cost - b.cost)[0];
  if (attr !== undefined && out.by === undefined) {
    ch.cost += attr.cost;
    if (attr.dir === 'asc') out.dir = out.dir === 'desc' ? 'asc' : 'desc';
    // "which species has the heaviest penguin": the group holding the extreme row, not the best average.
    // ("which sport has the heaviest athletes", in the plural: the heaviest on average.)
    const said = p.k === 'rank' && p.rows !== undefined ? d.tokens?.[p.rows.to - 1] : undefined;
    const oneRow = p.k === 'rank' && p.rows !== undefined && d.which?.dim !== undefined && said !== undefined && said.sing === said.norm;
    // An adjective's attribute (heavy: weight) is a level, averaged over a group's rows, unless the
    // column holds amounts ("most populous state" over counties adds up the people).
    const level = defaultAgg(attr.ref.column) !== 'sum' || !AMOUNT_NAMED.test(attr.ref.column.name);
    out.by = { agg: oneRow ? (out.dir === 'desc' ? 'max' : 'min') : level ? 'avg' : 'sum', col: attr.ref };
    out.attr = true;
  }
  return out;
}

/**
 * Whether a verb of recording or reaching comes before the superlative ("recorded", "reached",
 * "saw"): WordNet's verbs of communication, motion and perception. Verbs of having ("sold the
 * most units") keep the measure's own aggregate.
 */
function recordVerb(d: Draft, p: Part): boolean {
  return (d.tokens ?? []).some((t) => t.i < p.from && t.pos === 'VERB' && [32, 38, 39].includes(verbFile(t.lemma) ?? -1));
}

/** The question's own words for a mention, folded ("life expectancy"): they may say how to combine it. */
export function wordsOf(ch: Chooser, span: { from: number; to: number }): string {
  return (ch.tokens ?? []).slice(span.from, span.to).map((t) => t.norm).join(' ');
}
