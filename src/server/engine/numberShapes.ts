/**
 * What a number column's values say about themselves, decided when the table is read: a code that
 * stands for "not known" (an age of 99), and a number that describes the thing a repeating column
 * names rather than the row (a territory's population on each of its language rows). Every answer
 * that reads such a column uses it and says so; the overview lists it (shapeNotes).
 */
import { quoteIdent, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import type { RunSql } from './columnTypes';
import { isIdLike, timeNamed } from './shape';
import type { ColumnMeta } from './types';

/** Numbers surveys write for "no answer": all nines, or minus nines below numbers that are never negative. */
const HIGH_CODES = [99, 999, 9999, 99999];
const LOW_CODES = [-9, -99, -999, -9999];

/**
 * A number column whose top value is all nines far above the rest (`age` 15..62 and 99 on 60 rows),
 * or whose only negative value is minus nines: the code for "not known", which an average would take
 * for an age of 99. Read as missing (the column's expression drops it) and said in every answer.
 */
export async function markMissingCodes(run: RunSql, table: string, columns: ColumnMeta[]): Promise<void> {
  for (const c of columns) {
    if (c.kind !== 'numeric' || c.converted || c.sqlTemplate !== undefined || c.derived !== undefined || isIdLike(c) || timeNamed(c) || c.distinct < 4) continue;
    const high = HIGH_CODES.includes(c.max as number) ? (c.max as number) : undefined;
    const low = LOW_CODES.includes(c.min as number) ? (c.min as number) : undefined;
    const codeValue = high ?? low;
    if (codeValue === undefined) continue;
    const x = quoteIdent(c.name);
    const r = (await run(`SELECT count(*) FILTER (WHERE ${x} = ${codeValue}), min(${x}) FILTER (WHERE ${x} <> ${codeValue}), max(${x}) FILTER (WHERE ${x} <> ${codeValue}) FROM ${relationSql(table)}`))[0] ?? [];
    const [coded, restMin, restMax] = [num(r[0]), num(r[1]), num(r[2])];
    if (coded < 2 || coded > c.nonNull / 2 || !Number.isFinite(restMin) || !Number.isFinite(restMax)) continue;
    // 99 above ages of at most 89; -9 where every other value is zero or more.
    const apart = high !== undefined ? restMax <= 0.9 * high && restMin >= 0 : restMin >= 0;
    if (!apart) continue;
    const template = `NULLIF({t}${x}, ${codeValue})`;
    Object.assign(c, { sqlTemplate: template, expr: template.split('{t}').join(''), missingCode: { value: codeValue, rows: coded }, min: restMin, max: restMax, nonNull: c.nonNull - coded, distinct: c.distinct - 1 });
  }
}

/** "_Note: in `age`, 99 means not known (60 rows): left out._" for the columns a plan reads. */
export function missingCodeNote(columns: readonly ColumnMeta[]): string {
  const coded = [...new Set(columns)].filter((c) => c.missingCode !== undefined);
  if (coded.length === 0) return '';
  const said = coded.map((c) => `in \`${c.name.replace(/`/g, "'")}\`, ${c.missingCode?.value} means not known (${c.missingCode?.rows} rows)`);
  return `\n\n_Note: ${said.join('; ')}: left out._`;
}

/**
 * Numbers that describe the things a repeating column names rather than the rows (`territory_population`
 * on every language row of its territory): the same value on every row of each `territory`. Added up
 * per row, India's population counts 80 times. The coarsest such column is kept as the number's key.
 */
export async function markEntityAttributes(run: RunSql, table: string, rowCount: number, columns: ColumnMeta[]): Promise<void> {
  const keys = columns.filter((c) => c.kind === 'text' && !c.converted && !c.unique && c.distinct >= 5 && c.distinct <= rowCount / 1.5 && c.nonNull === rowCount)
    .sort((a, b) => a.distinct - b.distinct).slice(0, 3);
  const numbers = columns.filter((c) => c.kind === 'numeric' && c.sqlTemplate === undefined && !c.converted && c.derived === undefined && !isIdLike(c) && !timeNamed(c) && c.distinct > 2).slice(0, 40);
  // (Three grouped passes over the file: past a million rows the check would be felt at ingest.)
  if (keys.length === 0 || numbers.length === 0 || rowCount > 1_000_000) return;
  for (const key of keys) {
    const open = numbers.filter((c) => c.entityKey === undefined);
    if (open.length === 0) return;
    const k = quoteIdent(key.name);
    const per = open.map((c, i) => `count(DISTINCT ${quoteIdent(c.name)}) AS n${i}`).join(', ');
    const r = (await run(`SELECT count(*) FILTER (WHERE rows_of_key > 1), ${open.map((_c, i) => `max(n${i})`).join(', ')} FROM (SELECT count(*) AS rows_of_key, ${per} FROM ${relationSql(table)} GROUP BY ${k})`))[0] ?? [];
    // Enough things seen on several rows for "always the same" to mean something.
    if (num(r[0]) < 5) continue;
    open.forEach((c, i) => { if (num(r[i + 1]) === 1) c.entityKey = key.name; });
  }
}

/** "_Note: `territory_population` is one value per `territory`: each counts once._" for the measures a plan reads. */
export function entityNote(columns: readonly ColumnMeta[]): string {
  const keyed = [...new Set(columns)].filter((c) => c.entityKey !== undefined);
  if (keyed.length === 0) return '';
  return `\n\n_Note: ${keyed.map((c) => `\`${c.name.replace(/`/g, "'")}\` is one value per \`${(c.entityKey ?? '').replace(/`/g, "'")}\``).join('; ')}, repeated on its rows: each counts once._`;
}
