/**
 * A long table holds several measures in one value column, named by a key column's values
 * (`country, indicator, year, value` with indicator GDP, Population, …). "GDP of France in 2003"
 * and "average unemployment rate by country" name a measure by a value of the key, so each value
 * becomes a derived column: `GDP` is `value` where `indicator` is "GDP". Sums and averages of it
 * read only its own rows; the overview says so, and the SQL shows the CASE that makes it.
 */
import { quoteIdent, quoteLiteral, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { identifierWords, singular } from '../language/words';
import { QUALIFIER, type RunSql } from './columnTypes';
import { isIdLike, namesMeasures, timeNamed } from './shape';
import type { ColumnMeta } from './types';

/** Names of the column holding every measure's number. */
const VALUE_NAME = /^(value|values|val|obs|obs_value|observation|estimate|amount|figure|number|data_value|measurement)$/i;
/** More key values than this are names of things, not of measures. */
const MAX_KEYS = 40;

/** The derived measure columns of a long table (none when it is not one), with their ranges read in one scan. */
export async function keyedMeasures(run: RunSql, table: string, columns: readonly ColumnMeta[]): Promise<ColumnMeta[]> {
  const key = columns.find((c) => c.kind === 'text' && !c.converted && c.derived === undefined && c.values !== undefined
    && c.values.length >= 2 && c.values.length <= MAX_KEYS && namesMeasures(c));
  const measured = columns.filter((c) => c.kind === 'numeric' && c.derived === undefined && !isIdLike(c) && !timeNamed(c));
  const value = measured.find((c) => VALUE_NAME.test(c.name.trim())) ?? (measured.length === 1 ? measured[0] : undefined);
  if (key === undefined || value === undefined) return [];
  const taken = new Set(columns.map((c) => c.name.trim().toLowerCase()));
  const names = (key.values ?? []).filter((v) => v.trim().length > 1 && v.length <= 60 && !taken.has(v.trim().toLowerCase()) && /[a-z]/i.test(v));
  if (names.length === 0) return [];
  const ref = value.sqlTemplate ?? `${QUALIFIER}${quoteIdent(value.name)}`;
  const made = names.map((v): ColumnMeta => {
    const sqlTemplate = `(CASE WHEN ${QUALIFIER}${quoteIdent(key.name)} = ${quoteLiteral(v)} THEN ${ref} END)`;
    return {
      name: v.trim(), type: value.type, kind: 'numeric', expr: sqlTemplate.split(QUALIFIER).join(''), converted: false, tokens: identifierWords(v).map(singular),
      nonNull: 0, distinct: 0, unique: false, derived: [value.name, key.name], keyedBy: { key: key.name, value: v }, sqlTemplate,
    };
  });
  const row = (await run(`SELECT ${made.map((c) => `min(${c.expr}), max(${c.expr}), count(${c.expr}), count(DISTINCT ${c.expr})`).join(', ')} FROM ${relationSql(table)}`))[0] ?? [];
  made.forEach((c, i) => {
    const [lo, hi] = [row[i * 4], row[i * 4 + 1]];
    if (typeof lo === 'number') c.min = lo;
    if (typeof hi === 'number') c.max = hi;
    Object.assign(c, { nonNull: num(row[i * 4 + 2]), distinct: num(row[i * 4 + 3]) });
  });
  return made.filter((c) => c.nonNull > 0);
}

/** "`indicator` names measures of `value`: `GDP` is `value` where `indicator` is "GDP" (…)." */
export function keyedNote(columns: readonly ColumnMeta[]): string | undefined {
  const keyed = columns.filter((c) => c.keyedBy !== undefined);
  const first = keyed[0];
  if (first?.keyedBy === undefined) return undefined;
  const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
  const value = first.derived?.[0] ?? 'value';
  const more = keyed.length > 1 ? `; likewise ${keyed.slice(1, 4).map((c) => code(c.name)).join(', ')}${keyed.length > 4 ? ` and ${keyed.length - 4} more` : ''}` : '';
  return `${code(first.keyedBy.key)} names what ${code(value)} measures: ${code(first.name)} is ${code(value)} where ${code(first.keyedBy.key)} is "${first.keyedBy.value}"${more} (derived: not in the file).`;
}
