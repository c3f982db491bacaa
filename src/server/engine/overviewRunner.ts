/**
 * "Give me an overview" / "summarize this file": the profile of each table (rows, duplicates, and
 * per column: type, nulls, distinct values, range, mean, most common values), through the same
 * file-named CTEs as every other answer, so the shown SQL runs on the user's files.
 */
import { num, str } from '../profile/cellValues';
import { toCsv } from '../profile/csvFormat';
import { buildProfileSql, classifyType, PROFILE_COLUMNS } from '../profile/profileSql';
import { plural, tableSection, type ColumnProfile, type TableProfile } from '../profile/profileSummary';
import { fileNameFor, sqlBlock, type AnswerWriter } from './answerWriter';
import type { Executor } from './executor';
import { shownPreamble } from './recipe';
import { shapeSection } from './shapeNotes';
import type { TableMeta } from './types';

/** Profiles each table as its own Analyze step; returns the profiles (failed tables are skipped). */
export async function runOverview(tables: readonly TableMeta[], ex: Executor, writer: AnswerWriter): Promise<{ message: string; profiles: TableProfile[] }> {
  const profiles: TableProfile[] = [];
  const sections: string[] = [];
  for (const t of tables) {
    // The file's own columns: a column made of others (a `date` of `year` and `quarter`) is not
    // profiled, so counting it read as "Profiled the first 6 columns" of 7; the notes name it.
    const fileColumns = t.ingested.columns.length;
    const step = writer.step(`Profile ${t.label} (${plural(t.rowCount, 'row')}, ${plural(fileColumns, 'column')})`);
    ex.reset();
    try {
      const sql = buildProfileSql(t.alias, t.ingested.columns);
      let duplicateRows: number | undefined;
      let rowCount: number;
      try {
        const o = await ex.run([t], { comment: `Rows and exact duplicate rows of ${t.label}`, ctes: [], select: sql.overview }, 1);
        rowCount = num(o.rows[0]?.[0]);
        duplicateRows = num(o.rows[0]?.[1]);
      } catch {
        // DISTINCT cannot compare some column types (nested JSON); the row count alone still runs.
        ex.reset();
        const o = await ex.run([t], { comment: `Rows of ${t.label}`, ctes: [], select: sql.overviewSimple }, 1);
        rowCount = num(o.rows[0]?.[0]);
      }
      // A table wider than the profile is read only through the profiled columns.
      const only = sql.profiled.length < t.ingested.columns.length ? { columns: sql.profiled.map((c) => c.name) } : {};
      const result = await ex.run([t], { comment: `Profile of ${t.label}: one row per column`, ctes: [], select: sql.columns, ...only }, sql.profiled.length + 1);
      const columns: ColumnProfile[] = result.rows.map((r) => ({
        name: String(r[0]), type: String(r[1]), cls: classifyType(String(r[1])), nonNull: num(r[2]), nulls: num(r[3]),
        distinct: num(r[4]), min: str(r[5]), max: str(r[6]), mean: str(r[7]), top: str(r[8]),
      }));
      writer.code(step, sqlBlock(shownPreamble([t]), ex.ran.map((r) => ({ comment: r.comment, sql: r.shown }))));
      await writer.table(step, fileNameFor(`profile ${t.label}`, 'csv'), toCsv(PROFILE_COLUMNS, result.rows));
      step.done();
      const profile: TableProfile = { label: t.label, rowCount, columnCount: fileColumns, columns };
      if (duplicateRows !== undefined) profile.duplicateRows = duplicateRows;
      profiles.push(profile);
      sections.push(tableSection(profile) + shapeSection(t));
    } catch (err) {
      step.fail();
      if (err instanceof Error && err.name === 'AbortError') throw err;
      sections.push(`**${t.label}**: could not be profiled (${err instanceof Error ? err.message.split('\n')[0] : 'unknown error'}).`);
    }
  }
  return { message: sections.join('\n\n'), profiles };
}
