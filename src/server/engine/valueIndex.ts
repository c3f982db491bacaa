/**
 * The values of a table's low-cardinality text columns, read once when the table is indexed, and
 * what they say about their column: placeholders that mean "no value", lists written as text, and
 * yes/no columns written as letters.
 */
import { quoteIdent, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { QUALIFIER, type RunSql } from './columnTypes';
import { nullMarkersOf } from './missingMarkers';
import type { ColumnMeta } from './types';

/** Text columns with at most this many distinct values have their values indexed. */
export const MAX_INDEXED_VALUES = 5000;
/**
 * Columns per statement when reading stats and values: each distinct count holds a hash table, so a
 * 10,000-column file in one statement runs DuckDB out of memory; batches keep each scan bounded.
 */
export const COLUMN_BATCH = 200;

/**
 * Cells (rows times columns) one grouped statement over the values of many columns may take on
 * (see {@link groupedBatch}): its cost grows with the values grouped, not with the columns (2,000
 * columns of 100 rows in 0.8 s), and each statement reads the table again, which for a file read in
 * place means parsing every column of it.
 */
const CELLS_PER_BATCH = 2_000_000;
/** Columns per grouped statement at most, so that no statement's text grows without bound. */
const MAX_GROUPED_BATCH = 2_000;
/** Tables of at most this many rows and more columns than this have their values grouped in one UNPIVOT. */
const GROUPED_ROWS = 200_000;
const GROUPED_COLUMNS = 40;

/**
 * Columns per grouped statement ({@link groupedValues}, and the schema index's distinct counts) for
 * a table of `rows` rows.
 */
export function groupedBatch(rows: number): number {
  return Math.min(MAX_GROUPED_BATCH, Math.max(COLUMN_BATCH / 2, Math.floor(CELLS_PER_BATCH / Math.max(1, rows))));
}

/**
 * The distinct values of many columns in one grouped scan: a row of `list(DISTINCT …)` aggregates
 * keeps a hash table per column, and 200 of them over a 100-row table took 1.3 GB and seconds; one
 * UNPIVOT of the values as text, grouped by column, costs about the same for a thousand columns as
 * for one. UNPIVOT leaves NULLs out, as the aggregates' filter did.
 */
async function groupedValues(run: RunSql, t: string, batch: ReadonlyArray<{ c: ColumnMeta; i: number }>, rows: unknown[][]): Promise<void> {
  const cast = batch.map(({ c }, k) => `CAST(${quoteIdent(c.name)} AS VARCHAR) AS c${k}`).join(', ');
  const got = await run(`SELECT k, list(DISTINCT v) FROM (UNPIVOT (SELECT ${cast} FROM ${t}) ON COLUMNS(*) INTO NAME k VALUE v) GROUP BY k`);
  for (const r of got) {
    const k = Number(String(r[0]).slice(1));
    const at = batch[k];
    if (at !== undefined && Number.isInteger(k) && Array.isArray(r[1])) for (const v of r[1]) rows.push([at.i, v]);
  }
}

/** Loads every value of the low-cardinality text columns of a table of `rowCount` rows. */
export async function indexValues(run: RunSql, table: string, columns: ColumnMeta[], rowCount = Number.POSITIVE_INFINITY): Promise<void> {
  const wanted = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.kind === 'text' && !c.converted && c.derived === undefined && c.distinct > 0 && c.distinct <= MAX_INDEXED_VALUES);
  if (wanted.length === 0) return;
  const t = relationSql(table);
  const rows: unknown[][] = [];
  if (wanted.length > GROUPED_COLUMNS && rowCount <= GROUPED_ROWS) {
    const size = groupedBatch(rowCount);
    for (let from = 0; from < wanted.length; from += size) await groupedValues(run, t, wanted.slice(from, from + size), rows);
  } else for (let from = 0; from < wanted.length; from += COLUMN_BATCH) {
    // One scan for the whole batch: a file read in place is read once, not once per column.
    const batch = wanted.slice(from, from + COLUMN_BATCH);
    const lists = batch.map(({ c }) => `list(DISTINCT CAST(${quoteIdent(c.name)} AS VARCHAR)) FILTER (WHERE ${quoteIdent(c.name)} IS NOT NULL)`);
    const row = (await run(`SELECT ${lists.join(', ')} FROM ${t}`))[0] ?? [];
    batch.forEach(({ i }, k) => {
      const list = row[k];
      if (Array.isArray(list)) for (const v of list) rows.push([i, v]);
    });
  }
  const byColumn = new Map<number, string[]>();
  for (const r of rows) {
    const i = num(r[0]);
    if (typeof r[1] !== 'string') continue;
    const list = byColumn.get(i) ?? [];
    list.push(r[1]);
    byColumn.set(i, list);
  }
  for (const { c, i } of wanted) {
    const values = byColumn.get(i) ?? [];
    if (values.length <= MAX_INDEXED_VALUES) c.values = values.sort();
    const markers = nullMarkersOf(values);
    if (markers.length > 0) c.nullMarkers = markers;
    // Lists written as text ("red, green, blue"): items are matched one by one.
    const lists = values.filter((v) => /\S, \S/.test(v)).length;
    if (lists >= 2 && lists >= values.length * 0.2) c.listLike = true;
    yesNoText(c, values.filter((v) => !markers.includes(v)));
  }
}

const YES = /^(y|yes|true|t)$/i;
const NO = /^(n|no|false|f)$/i;

/**
 * `active` written Y / N (or Yes / No): a yes/no column, so "airlines still active" keeps the Y rows
 * rather than splitting them by the letter. The text stays as written; the column reads as a flag.
 */
function yesNoText(c: ColumnMeta, values: string[]): void {
  const trimmed = values.map((v) => v.trim());
  const kinds = new Set(trimmed.map((v) => v.toLowerCase()));
  if (kinds.size !== 2 || !trimmed.every((v) => YES.test(v) || NO.test(v)) || !trimmed.some((v) => YES.test(v)) || !trimmed.some((v) => NO.test(v))) return;
  const yes = trimmed.filter((v) => YES.test(v)).map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
  const template = `(trim(${QUALIFIER}${quoteIdent(c.name)}) IN (${yes}))`;
  Object.assign(c, { kind: 'boolean', converted: true, sqlTemplate: template, expr: template.split(QUALIFIER).join('') });
}
