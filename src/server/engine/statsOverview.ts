/**
 * The overview of a file read in place, from the statistics its ingest scan gathered (scanStats.ts):
 * no query runs, so the first answer on a gigabyte CSV costs about one read of the file. The SQL
 * shown is the scan itself over the user's file, so every number can be reproduced in DuckDB.
 */
import { scanStatsSql, type TableStats } from '../duckdb/scanStats';
import { toCsv } from '../profile/csvFormat';
import { classifyType, PROFILE_COLUMNS, TOP_VALUES } from '../profile/profileSql';
import { plural, tableSection, type ColumnProfile, type TableProfile } from '../profile/profileSummary';
import { fileNameFor, sqlBlock, type AnswerWriter } from './answerWriter';
import { shownCte, shownPreamble } from './recipe';
import { sqlName } from './schemaIndex';
import type { TableMeta } from './types';

/** Whether every table carries the statistics of its ingest scan. */
export function haveScanStats(tables: readonly TableMeta[]): boolean {
  return tables.length > 0 && tables.every((t) => t.ingested.stats !== undefined);
}

/** Column profiles from a table's scan statistics (distinct counts only where they are exact). */
export function profileFromStats(t: TableMeta, stats: TableStats): ColumnProfile[] {
  return stats.columns.map((s) => {
    const type = t.ingested.columns.find((c) => c.name === s.name)?.type ?? 'VARCHAR';
    const p: ColumnProfile = {
      name: s.name, type, cls: classifyType(type), nonNull: s.nonNull, nulls: stats.rows - s.nonNull,
      min: s.min, max: s.max, mean: s.mean, top: null,
    };
    if (s.values !== undefined) {
      if (s.complete === true) p.distinct = s.values.length;
      if (s.values.length > 0) p.top = s.values.slice(0, TOP_VALUES).join('; ');
      p.topApproximate = true;
    }
    return p;
  });
}

/** The overview of each table from its scan statistics; same shape as runOverview's result. */
export async function runStatsOverview(tables: readonly TableMeta[], writer: AnswerWriter): Promise<{ message: string; profiles: TableProfile[] }> {
  const profiles: TableProfile[] = [];
  const sections: string[] = [];
  for (const t of tables) {
    const stats = t.ingested.stats;
    if (stats === undefined) continue;
    const step = writer.step(`Profile ${t.label} (${plural(stats.rows, 'row')}, ${plural(t.ingested.columns.length, 'column')}), read in one pass`);
    const columns = profileFromStats(t, stats);
    const shown = `WITH ${shownCte(t)}\n${scanStatsSql(sqlName(t.alias), t.ingested.columns)}`;
    writer.code(step, sqlBlock(shownPreamble([t]), [{ comment: `Rows, missing values, ranges, means and frequent values of ${t.label}, in one scan`, sql: shown }]));
    const rows = columns.map((c) => [c.name, c.type, c.nonNull, c.nulls, c.distinct ?? null, c.min, c.max, c.mean, c.top]);
    await writer.table(step, fileNameFor(`profile ${t.label}`, 'csv'), toCsv(PROFILE_COLUMNS, rows));
    step.done();
    const profile: TableProfile = { label: t.label, rowCount: stats.rows, columnCount: t.ingested.columns.length, columns };
    profiles.push(profile);
    sections.push(tableSection(profile));
  }
  return { message: sections.join('\n\n'), profiles };
}
