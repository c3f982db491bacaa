/**
 * Statistics of the numeric and text columns of a wide table of modest length, grouped: one UNPIVOT
 * of up to 2,000 columns' values, grouped by column, instead of a row of aggregates per 100 columns.
 * DuckDB plans a row of aggregates in time that grows faster than their number, and each statement
 * reads the table again: a 10,000-column CSV read in place was parsed 100 times (four minutes).
 * UNPIVOT leaves NULLs out, so a column's group counts its values.
 */
import type { IngestedTable } from '../engine';
import { quoteIdent, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { codeLikeAggregate, filledTextAggregate, numberStyleAggregates, yearRuns, type RunSql } from './columnTypes';
import type { ColumnKind } from './types';

export interface ColumnStats {
  nonNull: number;
  distinct: number;
  min?: number | string;
  max?: number | string;
  /** Text columns: values read as numbers in each writing style, and non-empty values. */
  styles: { plain: number; us: number; eu: number };
  nonEmpty: number;
  /** Text columns: values like `c168` or `12B`, which make the column one of codes, not amounts. */
  codes: number;
  /**
   * Text columns of tables scanned whole: values holding four digits in a row. Dates and quarters
   * written as text all do, so a column with none needs no probe of its own (see {@link yearRuns}).
   */
  years?: number;
}

/** Stats with nothing counted (a column with no value has no group). */
function empty(): ColumnStats {
  return { nonNull: 0, distinct: 0, styles: { plain: 0, us: 0, eu: 0 }, nonEmpty: 0, codes: 0 };
}

/**
 * Counts, ranges (numbers, as DOUBLE like the row form) and how text is written (text columns) of
 * the columns of kind numeric or text; other columns keep empty stats for the caller to fill.
 */
export async function groupedStats(run: RunSql, table: string, columns: IngestedTable['columns'], kinds: readonly ColumnKind[], batchSize: number): Promise<{ rowCount: number; stats: ColumnStats[] }> {
  const t = relationSql(table);
  const stats = columns.map(() => empty());
  const grouped = async (kind: ColumnKind, type: string, aggregates: readonly string[], read: (s: ColumnStats, r: unknown[]) => void): Promise<void> => {
    const list = columns.map((c, i) => ({ c, i })).filter(({ i }) => kinds[i] === kind);
    for (let from = 0; from < list.length; from += batchSize) {
      const batch = list.slice(from, from + batchSize);
      const cast = batch.map(({ c }, k) => `CAST(${quoteIdent(c.name)} AS ${type}) AS c${k}`).join(', ');
      const rows = await run(`SELECT k, count(*), ${aggregates.join(', ')} FROM (UNPIVOT (SELECT ${cast} FROM ${t}) ON COLUMNS(*) INTO NAME k VALUE v) GROUP BY k`);
      for (const r of rows) {
        const at = batch[Number(String(r[0]).slice(1))];
        const s = at === undefined ? undefined : stats[at.i];
        if (s === undefined) continue;
        s.nonNull = num(r[1]);
        read(s, r);
      }
    }
  };
  await grouped('numeric', 'DOUBLE', ['min(v)', 'max(v)'], (s, r) => {
    if (typeof r[2] === 'number') s.min = r[2];
    if (typeof r[3] === 'number') s.max = r[3];
  });
  // The value column is named v, so the row form's aggregates apply to it as to a column "v".
  await grouped('text', 'VARCHAR', [...numberStyleAggregates('v', 0), filledTextAggregate('v', 0), codeLikeAggregate('v', 0), yearRuns('v', 0)], (s, r) => {
    s.styles = { plain: num(r[2]), us: num(r[3]), eu: num(r[4]) };
    s.nonEmpty = num(r[5]);
    s.codes = num(r[6]);
    s.years = num(r[7]);
  });
  // A text column with no value has no group: it holds no year either.
  kinds.forEach((k, i) => {
    const s = stats[i];
    if (k === 'text' && s !== undefined && s.years === undefined) s.years = 0;
  });
  const rowCount = num((await run(`SELECT count(*) FROM ${t}`))[0]?.[0]);
  return { rowCount, stats };
}
