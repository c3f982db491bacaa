/**
 * The summary panel's numbers, in two statements over the filtered view whatever the number of
 * columns: one row of counts and moments for every column, then one UNION ALL of every column's
 * histogram (numbers and dates: equal-width bins over [min, max]) or most common values (text and
 * booleans). Dates are binned on their epoch seconds.
 */
import { EXPLORE_LIMITS, type ColumnSummary, type ExploreColumn } from '../../shared/explore';
import { quoteIdent } from '../duckdb/sqlText';

type Run = (sql: string) => Promise<unknown[][]>;

const num = (v: unknown): number | undefined => {
  if (v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};
const count = (v: unknown): number => num(v) ?? 0;
const str = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/** Slots of one column in the first statement's row. */
const SLOTS = 9;

function statsExprs(c: ExploreColumn, i: number): string[] {
  const col = quoteIdent(c.name);
  const a = (e: string, k: number): string => `${e} AS s${i}_${k}`;
  const none = (k: number): string => `NULL AS s${i}_${k}`;
  const ranged = c.kind === 'number' || c.kind === 'date' || c.kind === 'datetime';
  const asNum = `CAST(${col} AS DOUBLE)`;
  return [
    a(`count(${col})`, 0),
    c.kind === 'other' ? none(1) : a(`count(DISTINCT ${col})`, 1),
    c.kind === 'text' ? a(`count_if(${col} = '')`, 2) : none(2),
    c.kind === 'number' ? a(`count_if(${col} = 0)`, 3) : none(3),
    ranged ? a(c.kind === 'number' ? `min(${asNum})` : `CAST(min(${col}) AS VARCHAR)`, 4) : none(4),
    ranged ? a(c.kind === 'number' ? `max(${asNum})` : `CAST(max(${col}) AS VARCHAR)`, 5) : none(5),
    c.kind === 'number' ? a(`avg(${asNum})`, 6) : none(6),
    c.kind === 'number' ? a(`median(${asNum})`, 7) : ranged ? a(`CAST(quantile_disc(${col}, 0.5) AS VARCHAR)`, 7) : none(7),
    c.kind === 'number' ? a(`stddev_samp(${asNum})`, 8) : none(8),
  ];
}

/** `filtered` is a SELECT of the view's rows (its filters applied). */
export async function summarize(run: Run, filtered: string, columns: readonly ExploreColumn[]): Promise<ColumnSummary[]> {
  if (columns.length === 0) return [];
  const exprs = ['count(*) AS total', ...columns.flatMap((c, i) => statsExprs(c, i))];
  const row = (await run(`WITH f AS (${filtered}) SELECT ${exprs.join(', ')} FROM f`))[0] ?? [];
  const total = count(row[0]);
  const out: ColumnSummary[] = columns.map((c, i) => {
    const at = 1 + i * SLOTS;
    const s: ColumnSummary = { column: c.name, kind: c.kind, count: total, missing: total - count(row[at]) };
    if (row[at + 1] !== null) s.distinct = count(row[at + 1]);
    if (c.kind === 'text') s.empty = count(row[at + 2]);
    if (c.kind === 'number') {
      s.zero = count(row[at + 3]);
      const [min, max, mean, median, stdev] = [4, 5, 6, 7, 8].map((k) => num(row[at + k]));
      if (min !== undefined) s.min = min;
      if (max !== undefined) s.max = max;
      if (mean !== undefined) s.mean = mean;
      if (median !== undefined) s.median = median;
      if (stdev !== undefined) s.stdev = stdev;
    } else if (c.kind === 'date' || c.kind === 'datetime') {
      const [min, max, median] = [4, 5, 7].map((k) => str(row[at + k]));
      if (min !== undefined) s.min = min;
      if (max !== undefined) s.max = max;
      if (median !== undefined) s.median = median;
    }
    return s;
  });
  await distributions(run, filtered, columns, out);
  return out;
}

const BINS = EXPLORE_LIMITS.histogramBins;

/** Fills `histogram` and `top` from one statement. */
async function distributions(run: Run, filtered: string, columns: readonly ExploreColumn[], out: ColumnSummary[]): Promise<void> {
  const parts: string[] = [];
  columns.forEach((c, i) => {
    const col = quoteIdent(c.name);
    const s = out[i] as ColumnSummary;
    if (s.count - s.missing === 0) return;
    if (c.kind === 'number' || c.kind === 'date' || c.kind === 'datetime') {
      const value = c.kind === 'number' ? `CAST(${col} AS DOUBLE)` : `epoch(${col})`;
      const lo = c.kind === 'number' ? num(s.min) : undefined;
      const hi = c.kind === 'number' ? num(s.max) : undefined;
      // Dates' bounds come back as text: their epoch is computed in the statement itself.
      const loSql = lo !== undefined ? String(lo) : `(SELECT min(${value}) FROM f)`;
      const hiSql = hi !== undefined ? String(hi) : `(SELECT max(${value}) FROM f)`;
      const bin = `CASE WHEN ${hiSql} = ${loSql} THEN 0 ELSE least(${BINS - 1}, CAST(floor((${value} - ${loSql}) / (${hiSql} - ${loSql}) * ${BINS}) AS INTEGER)) END`;
      parts.push(`SELECT ${i} AS c, ${bin} AS k, NULL::VARCHAR AS v, count(*) AS n FROM f WHERE ${col} IS NOT NULL AND isfinite(${value}) GROUP BY ALL`);
    } else if (c.kind === 'text' || c.kind === 'boolean') {
      parts.push(`SELECT * FROM (SELECT ${i} AS c, NULL::INTEGER AS k, CAST(${col} AS VARCHAR) AS v, count(*) AS n FROM f WHERE ${col} IS NOT NULL GROUP BY ALL ORDER BY n DESC, v LIMIT ${EXPLORE_LIMITS.topValues})`);
    }
  });
  if (parts.length === 0) return;
  const rows = await run(`WITH f AS (${filtered}) ${parts.join('\nUNION ALL\n')}`);
  for (const r of rows) {
    const s = out[count(r[0])];
    if (s === undefined) continue;
    if (r[2] === null || r[2] === undefined) {
      const k = count(r[1]);
      const bins = s.histogram ?? new Array<number>(BINS).fill(0);
      bins[k] = (bins[k] ?? 0) + count(r[3]);
      s.histogram = bins;
    } else {
      (s.top ??= []).push({ value: String(r[2]), count: count(r[3]) });
    }
  }
  for (const s of out) s.top?.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
