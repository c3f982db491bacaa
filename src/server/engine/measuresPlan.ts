/**
 * Plans for questions that measure something: counts ("how many"), aggregates of named numbers,
 * rankings, shares, and listings of rows ("show orders over 500", "the biggest order").
 */
import type { Cue } from './cues';
import { joinKey } from './joins';
import { defaultAgg, PERCENT_WORDS, ROW_WORDS, TIME_NAMED } from './lexicon';
import type { Span } from './mentions';
import { rowsPlan } from './rowsPlan';
import { aggFor, bucketsMeetingAmount, checkJoins, superlativeIsAggregate, tableSpan, unanswerable, type Parts } from './planKit';
import { GRAIN_NOUN } from './cues';
import { listedAggs } from './coordinated';
import { soleMeasure } from './nouns';
import { dateColumn, denseIds, frequencyWeight, hintFits, isGroupable, isIdLike, isIdName, isNumeric, mark, moneyColumn, nextSpan, pickColumn, pluralOfName, type Parse } from './roles';
import { STOP_WORDS, type Token } from './text';
import type { ColRef, ColumnMeta, Filter, Measure, Plan, TableMeta, Understanding } from './types';


/**
 * The column a superlative ranks rows by: the one it names itself ("the oldest patient": age), else
 * the measure the question names. When they differ, the named measure is shown, not ranked.
 */
function rankedBy(p: Parse, sup: Extract<Cue, { kind: 'superlative' }> | undefined, named: ColRef): ColRef {
  const hint = sup?.hint !== undefined ? new RegExp(sup.hint, 'i') : undefined;
  if (hint === undefined || hintFits(hint, named.column)) return named;
  // "the latest co2 reading": the date ranks the rows, and co2 is shown.
  const own = named.table.columns.find((c) => (isNumeric(c) || c.kind === 'temporal') && !isIdLike(c) && hintFits(hint, c));
  if (own === undefined) return named;
  const s = p.spans.find((x) => x.kind === 'column' && x.cols.some((c) => c.column === named.column));
  if (s !== undefined) p.taken.delete(s);
  return { table: named.table, column: own };
}

/** The column a table's rows are known by: a unique text column called a name, title or label. */
function displayColumn(t: TableMeta): ColumnMeta | undefined {
  return t.columns.find((c) => c.kind === 'text' && c.unique && /(^|[^a-z])(name|title|label)([^a-z]|$)/i.test(c.name));
}

/** The column span right after a leading "which"/"what" ("which state", "what year"). */
function whichSpan(p: Parse): Span | undefined {
  const i = p.tokens.findIndex((t) => t.norm === 'which' || t.norm === 'what');
  if (i < 0) return undefined;
  // "which the", "which 3 states": skip the article or the count.
  const k = p.tokens[i + 1]?.norm === 'the' || p.tokens[i + 1]?.kind === 'number' ? i + 2 : i + 1;
  const s = p.spans.find((x) => x.start === k);
  return s?.kind === 'column' ? s : undefined;
}

/** Whether the token is a noun for rows ("readings", "records", "measurements"). */
const rowNoun = (t: Token | undefined): boolean => t !== undefined && t.kind === 'word' && ROW_WORDS.has(t.stem);
/** A noun for the values of a column: "co2 values", "values of co2". */
const valueNoun = (t: Token | undefined): boolean => t !== undefined && t.kind === 'word' && (t.stem === 'value' || t.norm === 'values');

function countTarget(p: Parse, c: Cue, prefer: TableMeta | undefined): { measure?: Measure; table?: TableMeta; unknown?: string; hasValue?: ColRef } {
  // "how many remote employees", "how many online orders": adjectives (flags, values) are filters.
  const skipCues = (i: number): number => {
    let k = i;
    while (p.cues.some((x) => (x.kind === 'distinct' || x.kind === 'agg') && x.at === k)) k++;
    return k;
  };
  // "how many days had ...", "how many years": distinct time buckets of the date, not rows.
  const k = skipCues(c.end);
  const unit = p.tokens[k];
  const grain = unit?.kind === 'word' && unit.stem !== 'date' ? GRAIN_NOUN[unit.stem] : undefined;
  const at = p.spans.find((x) => x.start <= k && k < x.end);
  if (grain !== undefined) {
    const dc = dateColumn(p, prefer);
    // "how many quarters" with `year` and `quarter` columns: quarters of the date they make.
    const part = at?.kind === 'column' && dc !== undefined && at.cols.some((c) => dc.column.derived?.includes(c.column.name) === true);
    // "how many days" when the date column is itself called `day`.
    const itself = at?.kind === 'column' && dc !== undefined && at.cols.some((c) => c.column === dc.column);
    if (dc !== undefined && (at === undefined || part || itself)) {
      mark(p, k, k + 1);
      if (at !== undefined) p.taken.add(at);
      return { measure: { agg: 'count_distinct', col: dc, grain }, table: dc.table };
    }
  }
  let s = nextSpan(p, k, 3);
  // "how many readings", "number of records": rows, even when a column could be called that.
  if (rowNoun(p.tokens[k]) && (s === undefined || s.start > k || s.end === k + 1)) {
    const own = s !== undefined && s.start === k ? s : undefined;
    if (own !== undefined) p.taken.add(own);
    mark(p, k, k + 1);
    return { measure: { agg: 'count' }, table: own?.kind === 'column' ? own.cols[0]?.table : undefined };
  }
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
      // "how many years" over a `year` column: the years, not their sum.
      if (TIME_NAMED.test(col.column.name.trim())) return { measure: { agg: 'count_distinct', col } };
      // "how many co2 readings": the rows that have a co2 value, not the sum of the readings.
      const after = rowNoun(p.tokens[s.end]) || valueNoun(p.tokens[s.end]) ? s.end : undefined;
      // ("co2 readings", "values of co2": the noun is read as part of the column's name.)
      const inside = s.end - s.start > 1 && p.tokens.slice(s.start, s.end).some((t) => (rowNoun(t) || valueNoun(t)) && !col.column.tokens.includes(t.stem)) ? s.start : undefined;
      // ("how many distinct rad values" counts the distinct values instead.)
      const distinctHere = p.cues.some((x) => x.kind === 'distinct' && x.at >= c.end && x.end <= s.start);
      if (isNumeric(col.column) && !distinctHere && (after !== undefined || inside !== undefined)) {
        if (after !== undefined) mark(p, after, after + 1);
        return { measure: { agg: 'count' }, table: col.table, hasValue: col };
      }
      if (isNumeric(col.column) && !isIdLike(col.column) && !pluralOfName(p, s, col)) return { measure: { agg: 'sum', col } };
      return col.column.unique ? { measure: { agg: 'count' }, table: col.table } : { measure: { agg: 'count_distinct', col } };
    }
  }
  const inCue = (t: Token): boolean => p.cues.some((x) => x.at <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < x.end);
  const word = p.tokens.slice(skipCues(c.end), skipCues(c.end) + 3).find((t) => t.kind === 'word' && !inCue(t) && !STOP_WORDS.has(t.norm) && !ROW_WORDS.has(t.stem) && t.norm.length >= 3 && !p.spans.some((x) => x.start <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < x.end) && !p.dates.some((d) => d.at <= p.tokens.indexOf(t) && p.tokens.indexOf(t) < d.end));
  if (word !== undefined && (s === undefined || s.start > p.tokens.indexOf(word))) return { unknown: word.raw };
  return { measure: { agg: 'count' } };
}

/**
 * "average catholic share": after an aggregate, "share" or "percentage" right behind a column of
 * percentages (0-100) names that column's values, not a share of a total to compute.
 */
function sharesNamedByColumn(p: Parse): void {
  p.cues = p.cues.filter((c) => {
    if (c.kind !== 'share') return true;
    const s = p.spans.find((x): x is Extract<Span, { kind: 'column' }> => x.kind === 'column' && x.end === c.at);
    // Percentages by name, or by values reaching well into 0-100 (tips of 1 to 10 are not).
    const percent = s?.cols.some((x) => x.column.kind === 'numeric' && typeof x.column.min === 'number' && typeof x.column.max === 'number' && x.column.min >= 0 && x.column.max <= 100
      && (x.column.max > 20 || PERCENT_WORDS.test(x.column.name)));
    const aggregated = s !== undefined && p.cues.some((a) => a.kind === 'agg' && a.end <= s.start);
    if (percent !== true || !aggregated) return true;
    mark(p, c.at, c.end);
    return false;
  });
}

export function measuresPlan(p: Parse, prefer: TableMeta | undefined, parts: Parts, columnSpans: Array<Extract<Span, { kind: 'column' }>>): Understanding {
  sharesNamedByColumn(p);
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
    if (target.hasValue) filters.push({ kind: 'null', col: target.hasValue, isNull: false });
  }
  // "which state ...", "what year ...": the thing asked for is the answer's grouping, whatever its kind.
  const answer = whichSpan(p);
  if (dims.length === 0 && answer !== undefined && !p.taken.has(answer)) {
    const col = pickColumn(answer, 'dim', prefer);
    if (col && (isGroupable(col.column) || col.column.kind === 'text' || col.column.unique || TIME_NAMED.test(col.column.name.trim()))) {
      p.taken.add(answer);
      dims.push(col.column.kind === 'temporal' ? { col, grain: 'day' } : { col });
      // "which year and quarter"
      const second = p.tokens[answer.end]?.norm === 'and' ? p.spans.find((x) => x.start === answer.end + 1) : undefined;
      const col2 = second !== undefined && !p.taken.has(second) ? pickColumn(second, 'dim', prefer) : undefined;
      if (second !== undefined && col2 !== undefined && col2.table === col.table && (isGroupable(col2.column) || TIME_NAMED.test(col2.column.name.trim()))) {
        p.taken.add(second);
        dims.push({ col: col2 });
      }
    }
  }
  // Ranked or grouped entities: "top 5 regions", "which product", "the most common category".
  if (dims.length === 0 && (ranking || p.cues.some((c) => c.kind === 'share'))) {
    for (const s of columnSpans) {
      if (p.taken.has(s)) continue;
      // "top 5 orders" where each order is a row (an id): rank the rows themselves; a name ("top 5 states") groups.
      if (s.cols.some((c) => c.column.unique && isIdName(c.column))) continue;
      // "what percent of states are in the West": a column naming each row once is the rows; a share
      // per row of it (each state's 1/13) is never what a share question asks.
      if (!ranking && s.cols.every((c) => c.column.unique && c.column.kind === 'text')) {
        p.taken.add(s);
        continue;
      }
      const col = pickColumn(s, 'dim', prefer);
      // "the most common score": any repeated number is grouped by its values and counted.
      const frequency = sup?.frequency === true && col !== undefined && isNumeric(col.column) && !col.column.unique && measures.length === 0;
      if (col && (frequency || (isGroupable(col.column) && !(isNumeric(col.column) && measures.length === 0 && !p.spans.some((x) => x !== s && x.kind === 'column' && !p.taken.has(x)))))) {
        p.taken.add(s);
        dims.push(col.column.kind === 'temporal' ? { col, grain: 'day' } : { col });
        // The most common value is a value: rows without one are not a contender.
        if (sup?.frequency === true) filters.push({ kind: 'null', col, isNull: false });
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
      if ((isIdLike(col.column) || (pluralOfName(p, s, col) && denseIds(col.column))) && !explicit) {
        entity = true;
        continue;
      }
      // "the record rainfall year", "... by quarter of the year": a year is when something happened, not what is measured.
      if (TIME_NAMED.test(col.column.name.trim()) && !explicit) {
        p.taken.delete(s);
        continue;
      }
      // "how many readings have a co2 value": beside a count of rows, a measure nobody asked to
      // aggregate is not totalled by default (the total would be a number nobody asked for).
      const listed = listedAggs(p.tokens, p.cues, s.start);
      const asked = explicit || listed !== undefined || p.cues.some((c) => c.kind === 'agg' && c.agg !== 'count');
      if (!asked && measures.some((m) => m.agg === 'count' && m.col === undefined)) {
        p.taken.delete(s);
        continue;
      }
      // "min and max revenue": one measure per listed aggregate.
      for (const agg of listed ?? [aggFor(p, s.start, col.column, dims.length, s.end)]) {
        if (!measures.some((m) => m.col?.column === col.column && m.agg === agg)) measures.push({ agg, col });
      }
    }
  }
  // "the hottest reading", "which site is the warmest": the superlative names the measure.
  if (measures.length === 0 && sup?.hint !== undefined) {
    const hint = new RegExp(sup.hint, 'i');
    const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
    const table = tables.find((t) => t.columns.some((c) => isNumeric(c) && !isIdLike(c) && hintFits(hint, c)));
    const column = table?.columns.find((c) => isNumeric(c) && !isIdLike(c) && hintFits(hint, c));
    if (table && column) {
      const col = { table, column };
      // "the heaviest penguin, and what species": the superlative picks one row (the noun right
      // after it names the rows), and the columns asked about are shown with it, not grouped by.
      const rowNamed = p.spans.some((s) => s.kind === 'table' && s.start === sup.end);
      if (rowNamed && topN === undefined && !p.cues.some((c) => c.kind === 'count' || c.kind === 'group' || c.kind === 'grain' || c.kind === 'share')) {
        for (const s of p.spans) if (s.kind === 'column' && dims.some((d) => s.cols.some((c) => c.column === d.col.column))) p.taken.delete(s);
        return rowsPlan(p, table, filters, parts, 1, { col, dir: sup.dir });
      }
      if (dims.length === 0 && !p.cues.some((c) => c.kind === 'count')) {
        const rowsContext = p.spans.some((s) => s.kind === 'table') || entity || p.tokens.some((t) => ROW_WORDS.has(t.stem));
        if (rowsContext) return rowsPlan(p, table, filters, parts, topN?.n ?? 1, { col, dir: sup.dir });
        measures.push({ agg: sup.dir === 'desc' ? 'max' : 'min', col });
      } else measures.push({ agg: defaultAgg(column), col });
    }
  }
  // "record rainfall year" in a table of one series: the superlative ranks that series.
  if (measures.length === 0 && sup !== undefined && dims.length === 0 && !p.cues.some((c) => c.kind === 'count') && p.tables.length === 1 && p.tables[0] !== undefined) {
    const sole = soleMeasure(p.tables[0]);
    const col = sole?.kind === 'column' ? sole.cols[0] : undefined;
    if (col !== undefined) return rowsPlan(p, col.table, filters, parts, topN?.n ?? 1, { col, dir: sup.dir });
  }
  if (parts.rankBy && !measures.some((m) => m.col?.column === parts.rankBy?.column)) {
    measures.unshift({ agg: aggFor(p, p.tokens.length, parts.rankBy.column, dims.length), col: parts.rankBy });
  }
  // "top 5 customers by amount" where customers is another file: rank by its key in the measured table.
  const named = tableSpan(p);
  const measuredTable = measures.find((m) => m.col)?.col?.table;
  if (dims.length === 0 && ranking && named !== undefined && measuredTable !== undefined && named !== measuredTable) {
    const key = joinKey(measuredTable, named);
    if (key) {
      dims.push({ col: { table: measuredTable, column: key.left } });
      // Show each one by name first, not only by its key ("Lisbon", not just "LIS").
      const label = displayColumn(named);
      if (label !== undefined && label !== key.right) dims.unshift({ col: { table: named, column: label } });
    }
  }
  // A remaining category named with "-wise" groups the result ("revenue region-wise"); a bare name
  // elsewhere does not (it is left for the word check to question).
  if (dims.length === 0 && measures.length > 0) {
    for (const s of columnSpans) {
      if (p.taken.has(s) || p.tokens[s.end]?.norm !== 'wise') continue;
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
      return rowsPlan(p, rowTable, filters, parts, topN?.n ?? 1, { col: rankedBy(p, sup, m.col), dir: topN?.dir ?? sup?.dir ?? 'desc' });
    }
  }
  // "the highest price", "when was unemployment at its peak": the row the extreme belongs to.
  const only = measures[0];
  // "the record number of visits": a count cue that named a number column is that column.
  const counted = p.cues.some((c) => c.kind === 'count' || (c.kind === 'agg' && c.agg === 'count')) && !(only?.agg === 'sum' && only.col !== undefined);
  const plainWord = sup !== undefined && /^(max|min|maximum|minimum)$/.test(sup.word);
  if (dims.length === 0 && sup !== undefined && !plainWord && topN === undefined && aggCue === undefined && !counted && !share && measures.length === 1 && only?.col !== undefined) {
    return rowsPlan(p, only.col.table, filters, parts, 1, { col: rankedBy(p, sup, only.col), dir: sup.dir });
  }
  // "average monthly total of visits": totals per month, averaged.
  const aggs = p.cues.filter((c): c is Extract<Cue, { kind: 'agg' }> => c.kind === 'agg').map((c) => c.agg);
  const bucket = dims[0];
  if (aggs.includes('avg') && aggs.includes('sum') && measures.length === 1 && only?.col !== undefined && dims.length === 1 && bucket?.grain !== undefined && bucket.col.column.kind === 'temporal') {
    const plan: Plan = { kind: 'aggregate', base: only.col.table, measures: [{ agg: 'avg', col: only.col }], dims: [], filters, chart, perBucket: { col: bucket.col, grain: bucket.grain } };
    return checkJoins(plan);
  }
  const base = countTable ?? measures.find((m) => m.col)?.col?.table ?? prefer ?? dims[0]?.col.table ?? p.tables[0];
  if (!base) return unanswerable('no table is selected');
  // In a table of counts, people are counted by summing the counts ("how many survived" = sum of Freq).
  const weight = frequencyWeight(base);
  if (weight !== undefined && !p.tokens.some((t) => ROW_WORDS.has(t.stem))) {
    measures.forEach((m, i) => {
      if (m.agg === 'count' && m.col === undefined) measures[i] = { agg: 'sum', col: weight };
    });
  }
  const perBucket = dims.length === 0 ? bucketsMeetingAmount(measures, filters, base) : undefined;
  if (perBucket !== undefined) return unanswerable(perBucket, parts.lost);
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
    else if (filters.length > 0) {
      plan.shareOfFiltered = true;
      const scope = shareScope(p, filters);
      if (scope.length > 0) plan.shareScope = scope;
    }
    else return unanswerable('a share needs groups ("by channel") or a condition ("online orders")', parts.lost);
  }
  return checkJoins(plan);
}

/**
 * "what percentage of retail stores are franchise stores": conditions named before the verb
 * describe the whole the share is of; the ones after it, the part.
 */
function shareScope(p: Parse, filters: readonly Filter[]): number[] {
  const shareAt = p.cues.find((c) => c.kind === 'share')?.end ?? 0;
  let verb = p.tokens.findIndex((t, i) => i > shareAt && /^(are|is|were|was|have|has|had|do|does|did|get|gets|got|earn|earns)$/.test(t.norm));
  // "what share of crew survived", "share of blond people with blue eyes": the value right after
  // "of" names the whole; what follows it is the part.
  if (verb < 0 && p.tokens[shareAt]?.norm === 'of') {
    const whole = p.spans.find((x) => x.kind === 'value' && x.start === shareAt + 1);
    if (whole !== undefined) verb = whole.end;
  }
  if (verb < 0) return [];
  const at = (f: Filter): number | undefined => p.spans.find((s) => (s.kind === 'value' && s.matches.some((m) => m.ref.column === f.col.column))
    || (s.kind === 'column' && s.cols.some((c) => c.column === f.col.column)))?.start;
  const out: number[] = [];
  filters.forEach((f, i) => {
    const pos = at(f);
    if (pos !== undefined && pos > shareAt && pos < verb) out.push(i);
  });
  // Everything before the verb would leave no part to take a share of.
  return out.length === filters.filter((f) => f.kind !== 'dateRange' && f.kind !== 'datePart').length ? [] : out;
}
