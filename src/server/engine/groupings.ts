/**
 * The groupings a question asks for: "by region", "per month", "for each plant", a grain word
 * ("monthly"), with the words that must not be dropped ("per wine type", "on weekdays").
 */
import { GRAIN_NOUN, type Cue } from './cues';
import { ROW_WORDS } from './lexicon';
import type { Span } from './mentions';
import { timeDim } from './planKit';
import { joinKey } from './joins';
import { dateColumn, isGroupable, isIdLike, isIdName, isNumeric, mark, nextSpan, pickColumn, type Parse } from './roles';
import { STOP_WORDS } from './text';
import type { ColRef, Dim, Grain, TableMeta } from './types';

/** The column a group-by span stands for (a table named after a key: "per customer" -> customer_id). */
function dimOfSpan(s: Span, prefer: TableMeta | undefined): ColRef | undefined {
  if (s.kind === 'column') return pickColumn(s, 'dim', prefer);
  if (s.kind === 'table' && prefer !== undefined && s.table !== prefer) {
    const key = joinKey(prefer, s.table);
    if (key) return { table: prefer, column: key.left };
  }
  return undefined;
}

/** The grain a date column has when every row is one bucket of it (one row per day, per year...). */
export function naturalGrain(col: ColRef): Grain | undefined {
  const c = col.column;
  if (c.distinct < col.table.rowCount * 0.98 || c.nonNull < col.table.rowCount * 0.98) return undefined;
  if (c.partsGrain !== undefined) return c.partsGrain;
  return /^DATE$/i.test(c.type) || c.sqlTemplate !== undefined ? 'day' : undefined;
}

/**
 * "hourly rate", "average daily visits", "earn per hour": a time word beside a measure that names
 * its unit, when the data cannot be grouped by it (no date) or its rows already are that unit.
 */
function grainIsUnit(p: Parse, c: Extract<Cue, { kind: 'grain' }>, prefer: TableMeta | undefined): boolean {
  // "employed by year" groups; "salary per year" may be a unit.
  if (p.tokens[c.at]?.norm === 'by') return false;
  const adjective = c.end - c.at === 1 && p.spans.some((s) => s.kind === 'column' && s.start === c.end);
  const after = p.spans.some((s) => s.kind === 'column' && s.end === c.at && s.cols.some((x) => isNumeric(x.column)));
  if (!adjective && !after) return false;
  const dc = dateColumn(p, prefer);
  return dc === undefined || naturalGrain(dc) === c.grain;
}

interface Collected {
  dims: Dim[];
  rankBy?: ColRef;
  unknownGroup?: string;
}

/** A whole-number column named for a time grain ("Year", "month"), when no date column can be bucketed. */
function partNamed(p: Parse, prefer: TableMeta | undefined, grain: string): ColRef | undefined {
  const name = new RegExp(`^${grain}s?$`, 'i');
  for (const t of prefer ? [prefer, ...p.tables] : p.tables) {
    const column = t.columns.find((c) => name.test(c.name.trim()) && c.kind === 'numeric' && Number.isInteger(c.min) && Number.isInteger(c.max));
    if (column !== undefined) return { table: t, column };
  }
  return undefined;
}

/** Words asking for a sorting of things ("per type", "by wine kind"): a grouping, never filler. */
const SORT_WORDS = /^(type|types|kind|kinds|category|categories|class|classes|group|groups|sort|sorts|variety|varieties|style|styles|genre|genres)$/;

export function collectDims(p: Parse, prefer: TableMeta | undefined): Collected {
  const out: Collected = { dims: [] };
  const add = (d: Dim): void => {
    if (out.dims.length < 2 && !out.dims.some((x) => x.col.column === d.col.column && x.grain === d.grain)) out.dims.push(d);
  };
  const ranking = p.cues.some((c) => c.kind === 'topN' || c.kind === 'superlative');
  for (const c of p.cues) {
    if (c.kind === 'grain') {
      // "average sales on weekdays": a condition (which days), not a breakdown by day of the week.
      if (c.grain === 'weekday' && /^(on|during)$/.test(p.tokens[c.at - 1]?.norm ?? '')) {
        out.unknownGroup ??= p.tokens.slice(c.at - 1, c.end).map((t) => t.raw).join(' ');
        continue;
      }
      if (grainIsUnit(p, c, prefer)) {
        c.asUnit = true;
        mark(p, c.at, c.end);
        continue;
      }
      const d = timeDim(p, prefer, c.grain);
      if (d) add(d);
      else {
        // "employed by year" with a `Year` column of numbers and no date: group by that column; with
        // neither, the grain is left unexplained (refused) rather than dropped.
        const part = partNamed(p, prefer, c.grain);
        if (part === undefined) continue;
        add({ col: part });
        for (const s of p.spans) if (s.kind === 'column' && s.cols.some((x) => x.column === part.column)) p.taken.add(s);
      }
      mark(p, c.at, c.end);
    } else if (c.kind === 'group') {
      // "for each number of pets": the number of them is the grouping itself.
      const counting = p.cues.find((x) => x.kind === 'count' && x.at === c.end && p.tokens[x.at]?.norm === 'number');
      if (counting !== undefined) p.cues = p.cues.filter((x) => x !== counting);
      const s = nextSpan(p, counting?.end ?? c.end, 2);
      if (s === undefined || p.taken.has(s)) {
        if (p.cues.some((x) => x.at === c.end)) continue;
        const word = p.tokens[c.end];
        if (s === undefined && word?.kind === 'word' && ((!STOP_WORDS.has(word.norm) && !ROW_WORDS.has(word.stem)) || SORT_WORDS.test(word.norm))) out.unknownGroup ??= word.raw;
        continue;
      }
      // "per wine type" in wine.csv: the rows' name followed by "type" asks for a sorting of them
      // that no column holds; without this, "per wine" read as per row gives one overall figure.
      const sortWord = p.tokens[s.end];
      if (s.kind === 'table' && sortWord !== undefined && SORT_WORDS.test(sortWord.norm)) {
        out.unknownGroup ??= p.tokens.slice(s.start, s.end + 1).map((t) => t.raw).join(' ');
        continue;
      }
      // "average quantity per order" where each order is one row: an average over rows, no grouping.
      // Only for ids, averages and counts ("by number of clubs"): "points by team" with one row per
      // team lists each team.
      const averaging = counting !== undefined || p.cues.some((x) => x.kind === 'agg' && (x.agg === 'avg' || x.agg === 'median'));
      if (s.kind === 'column' && s.cols.some((x) => x.column.unique && (isIdName(x.column) || (averaging && isIdLike(x.column))))) {
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
