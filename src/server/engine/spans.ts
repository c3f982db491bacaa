/**
 * A span held in two columns (`start_time` and `end_time`, `onset` and `discharge`, `born` and
 * `died`): "average trip duration" and "how long did the longest stay last" ask for the time
 * between them, which no column holds. The table gets a derived column `duration_<unit>`, in the
 * unit its typical span reads best in (minutes, hours, days or years). It is not in the file; the
 * overview says what it is made of, and its SQL is shown.
 */
import { quoteIdent, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { QUALIFIER, type RunSql } from './columnTypes';
import type { ColumnMeta } from './types';

const START = /^(start|starting|begin|beginning|onset|open|opened|opening|pickup|departure|depart|admission|admit|admitted|created|creation|birth|born|entry|entered|checkin|launch|launched|issued|submitted)$/;
const END = /^(end|ending|finish|finished|stop|stopped|close|closed|closing|dropoff|arrival|arrive|discharge|discharged|resolved|resolution|death|died|exit|exited|checkout|completed|completion|return|returned|due)$/;

type Unit = 'minutes' | 'hours' | 'days' | 'years';
const SECONDS: Record<Unit, number> = { minutes: 60, hours: 3600, days: 86_400, years: 365.25 * 86_400 };

/** The start and end columns of the table's one span, if it has exactly one. */
function spanPair(columns: readonly ColumnMeta[]): { start: ColumnMeta; end: ColumnMeta } | undefined {
  const timed = columns.filter((c) => c.kind === 'temporal' && c.derived === undefined && /^(DATE|TIMESTAMP.*)$/i.test(c.type.trim()));
  const rest = (c: ColumnMeta, word: RegExp): string | undefined => (c.tokens.some((w) => word.test(w)) ? c.tokens.filter((w) => !word.test(w)).join(' ') : undefined);
  const pairs: Array<{ start: ColumnMeta; end: ColumnMeta }> = [];
  for (const start of timed) {
    const a = rest(start, START);
    if (a === undefined) continue;
    for (const end of timed) {
      const b = rest(end, END);
      // `start_time`/`end_time`, `onset`/`discharge_date`: the other words agree, or one side has none.
      if (end !== start && b !== undefined && (a === b || a === '' || b === '' || a === 'date' || b === 'date')) pairs.push({ start, end });
    }
  }
  return pairs.length === 1 ? pairs[0] : undefined;
}

/** The derived duration column of a table with one span, its unit chosen by the median span (one scan). */
export async function spanDuration(run: RunSql, table: string, columns: readonly ColumnMeta[]): Promise<ColumnMeta | undefined> {
  const pair = spanPair(columns);
  if (pair === undefined) return undefined;
  const ref = (c: ColumnMeta): string => `epoch(CAST(${c.sqlTemplate ?? `${QUALIFIER}${quoteIdent(c.name)}`} AS TIMESTAMP))`;
  const seconds = `(${ref(pair.end)} - ${ref(pair.start)})`;
  const flat = seconds.split(QUALIFIER).join('');
  const row = (await run(`SELECT median(${flat}), count(${flat}), count(DISTINCT ${flat}), min(${flat}), max(${flat}) FROM ${relationSql(table)}`))[0] ?? [];
  const median = num(row[0]);
  if (!Number.isFinite(median) || median <= 0) return undefined;
  const unit: Unit = median < 2 * 3600 ? 'minutes' : median < 72 * 3600 ? 'hours' : median < 730 * 86_400 ? 'days' : 'years';
  const name = `duration_${unit}`;
  if (columns.some((c) => c.name.toLowerCase() === name)) return undefined;
  const sqlTemplate = `(${seconds} / ${SECONDS[unit]})`;
  return {
    name, type: 'DOUBLE', kind: 'numeric', expr: sqlTemplate.split(QUALIFIER).join(''), converted: false, tokens: ['duration', unit === 'years' ? 'year' : unit.replace(/s$/, '')],
    nonNull: num(row[1]), distinct: num(row[2]), min: num(row[3]) / SECONDS[unit], max: num(row[4]) / SECONDS[unit], unique: false,
    derived: [pair.end.name, pair.start.name], role: 'level', sqlTemplate,
  };
}
