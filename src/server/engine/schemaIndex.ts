/**
 * What the question understanding knows about each selected table: columns with their kind, range,
 * distinct count and (for categories) every value, so "in Europe" can be found in the data. Built
 * with two aggregate scans per table and cached per table version, so follow-up questions and
 * repeated questions on big tables do not pay for it again.
 */
import type { DataSource } from '../../shared/domain';
import { fileExtension } from '../../shared/fileNames';
import type { IngestedTable } from '../engine';
import { quoteIdent, slug, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { yearRuns, codeLikeAggregate, dateFromParts, dateTimeFromParts, marginFromPriceAndCost, filledTextAggregate, holdsQuarters, numberStyleAggregates, quarterTextSql, numberTextSql, pickNumberStyle, QUALIFIER, textDateFormats, textDateSql, type RunSql } from './columnTypes';
import { NULL_MARKER_SQL } from './missingMarkers';
import { markEntityAttributes, markMissingCodes } from './numberShapes';
import type { ColumnKind, ColumnMeta, TableMeta } from './types';
import { ingestRole } from './shape';
import { markTotalRows } from './totalRows';
import { markPlaceGroups } from './placeGroups';
import { groupedBatch, indexValues } from './valueIndex';
import { groupedStats, type ColumnStats } from './groupedStats';
import { longColumns, longSelect, longShape, withoutEmptyYears } from './wideTables';
import { columnsFromStats } from './statsColumns';
import { kindOf, nameTokens, RESERVED } from './columnNaming';
import { keyedMeasures } from './keyedMeasures';
import { spanDuration } from './spans';

/** Above this size distinct counts are approximate (HyperLogLog), which is plenty for choosing roles. */
const EXACT_DISTINCT_ROWS = 200_000;
/** Above {@link EXACT_DISTINCT_ROWS} rows, how text columns write numbers is read from this many rows. */
const STYLE_SAMPLE_ROWS = 100_000;
const CACHE_LIMIT = 64;
/** Kinds of column a wide table of modest length has summarised by {@link groupedStats}. */
const GROUPED_KINDS = new Set<ColumnKind>(['numeric', 'text']);
const emptyStats = (): ColumnStats => ({ nonNull: 0, distinct: 0, styles: { plain: 0, us: 0, eu: 0 }, nonEmpty: 0, codes: 0 });
/** Beyond this many columns distinct counts are taken by {@link distinctCounts}. */
const WIDE_TABLE = 40;

export { nameTokens, sqlName } from './columnNaming';

/** Label users know a table by. */
export function tableLabel(source: DataSource, t: IngestedTable): string {
  return t.sheet === undefined ? source.fileName : `${source.fileName}, sheet ${t.sheet}`;
}

function baseAlias(source: DataSource, t: IngestedTable): string {
  // `orders.csv.gz` is the table `orders`, as `orders.csv` is.
  const base = source.fileName.slice(0, source.fileName.length - fileExtension(source.fileName).length) || source.fileName;
  let a = slug(t.sheet === undefined ? base : `${base}_${t.sheet}`, 40);
  if (/^[0-9]/.test(a)) a = `t_${a}`;
  if (RESERVED.has(a)) a = `${a}_data`;
  return a;
}

/**
 * Distinct counts the ingest scan of a file read in place already knows exactly: text columns whose
 * every value it listed. Counting them again (approximately, on a big file) costs a hash of every
 * value, 0.15 s per column on 17 M rows.
 */
function knownDistinct(t: IngestedTable): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of t.stats?.columns ?? []) if (s.complete === true && s.values !== undefined) out.set(s.name, s.values.length);
  return out;
}

/** One aggregate scan for every column: counts, distinct values, ranges, numbers written as text. */
function statsSql(table: string, columns: IngestedTable['columns'], rowCount: number, distinctApart: boolean, sampledStyles: boolean, known: ReadonlyMap<string, number> = new Map()): { sql: string; width: number } {
  const t = relationSql(table);
  const parts: string[] = ['count(*)'];
  columns.forEach((c, i) => {
    const col = quoteIdent(c.name);
    const kind = kindOf(c.type);
    const distinct = distinctApart || known.has(c.name) ? 'NULL' : rowCount <= EXACT_DISTINCT_ROWS || kind === 'other' ? `count(DISTINCT ${col})` : `approx_count_distinct(${col})`;
    parts.push(`count(${col}) AS nn${i}`, kind === 'other' ? `NULL AS d${i}` : `${distinct} AS d${i}`);
    if (kind === 'numeric') parts.push(`CAST(min(${col}) AS DOUBLE) AS lo${i}`, `CAST(max(${col}) AS DOUBLE) AS hi${i}`);
    else if (kind === 'temporal') parts.push(`CAST(min(${col}) AS VARCHAR) AS lo${i}`, `CAST(max(${col}) AS VARCHAR) AS hi${i}`);
    else parts.push(`NULL AS lo${i}`, `NULL AS hi${i}`);
    if (kind === 'text' && !sampledStyles) parts.push(...numberStyleAggregates(c.name, i), filledTextAggregate(c.name, i), codeLikeAggregate(c.name, i), yearRuns(c.name, i));
    else parts.push(`NULL AS plain${i}`, `NULL AS us${i}`, `NULL AS eu${i}`, `NULL AS ne${i}`, `NULL AS cd${i}`, `NULL AS yr${i}`);
  });
  return { sql: `SELECT ${parts.join(', ')} FROM ${t}`, width: 10 };
}

/**
 * How the text columns of a large table are written (numbers in which style, how many non-empty),
 * from its first {@link STYLE_SAMPLE_ROWS} rows. Reading numbers out of text takes regular
 * expressions over every value: 13 s on 17 M rows. The style only decides how a column is read; its
 * range, count and the values that do not read as numbers are then taken over the whole column.
 */
async function sampledStyles(run: RunSql, table: string, columns: IngestedTable['columns'], stats: ColumnStats[]): Promise<void> {
  const text = columns.map((c, i) => ({ c, i })).filter(({ c }) => kindOf(c.type) === 'text');
  if (text.length === 0) return;
  const parts = text.flatMap(({ c, i }) => [...numberStyleAggregates(c.name, i), filledTextAggregate(c.name, i), codeLikeAggregate(c.name, i)]);
  const row = (await run(`SELECT ${parts.join(', ')} FROM (SELECT * FROM ${relationSql(table)} LIMIT ${STYLE_SAMPLE_ROWS})`))[0] ?? [];
  text.forEach(({ i }, k) => {
    const s = stats[i];
    if (s === undefined) return;
    s.styles = { plain: num(row[k * 5]), us: num(row[k * 5 + 1]), eu: num(row[k * 5 + 2]) };
    s.nonEmpty = num(row[k * 5 + 3]);
    s.codes = num(row[k * 5 + 4]);
  });
}

function readStats(row: unknown[], count: number, width: number): ColumnStats[] {
  const out: ColumnStats[] = [];
  for (let i = 0; i < count; i++) {
    const base = 1 + i * width;
    const s: ColumnStats = {
      nonNull: num(row[base]), distinct: num(row[base + 1]), nonEmpty: num(row[base + 7]), codes: num(row[base + 8]),
      styles: { plain: num(row[base + 4]), us: num(row[base + 5]), eu: num(row[base + 6]) },
    };
    const years = row[base + 9];
    if (years !== null && years !== undefined) s.years = num(years);
    const lo = row[base + 2];
    const hi = row[base + 3];
    if (typeof lo === 'number' || typeof lo === 'string') s.min = lo;
    if (typeof hi === 'number' || typeof hi === 'string') s.max = hi;
    out.push(s);
  }
  return out;
}

/**
 * Exact distinct counts of many columns in one grouped scan: every count(DISTINCT) in a row of
 * aggregates keeps its own hash table (about 8 ms and megabytes each), while one UNPIVOT of the
 * values as text, grouped by column, costs about the same for a thousand columns as for one.
 */
async function distinctCounts(run: RunSql, table: string, columns: IngestedTable['columns']): Promise<number[]> {
  const cast = columns.map((c, i) => `CAST(${quoteIdent(c.name)} AS VARCHAR) AS c${i}`).join(', ');
  const rows = await run(`SELECT k, count(DISTINCT v) FROM (UNPIVOT (SELECT ${cast} FROM ${relationSql(table)}) ON COLUMNS(*) INTO NAME k VALUE v) GROUP BY k`);
  const out = columns.map(() => 0);
  for (const r of rows) {
    const i = Number(String(r[0]).slice(1));
    if (Number.isInteger(i) && i >= 0 && i < out.length) out[i] = num(r[1]);
  }
  return out;
}

/**
 * Columns per statement of aggregates (counts, ranges, how text is written). DuckDB plans a row of
 * aggregates in time that grows faster than their number: 100 columns took 0.2 s, 200 took 0.9 s,
 * 400 took 2.8 s and 2,000 took three minutes, so a 10,000-column table is read in small batches.
 */
const STATS_BATCH = 100;
/** SQL turning a text column of mixed date formats into a DATE (or TIMESTAMP when times appear). */
export function mixedDateExpr(column: string, formats: string[], qualifier?: string): string {
  return textDateSql(column, formats, qualifier === undefined ? '' : `${qualifier}.`);
}

/** Range and count of a typed expression over the table. */
async function rangeOf(run: RunSql, table: string, expr: string, temporal: boolean): Promise<{ min?: number | string; max?: number | string; count: number }> {
  const cast = (e: string): string => (temporal ? `CAST(${e} AS VARCHAR)` : `CAST(${e} AS DOUBLE)`);
  const r = (await run(`SELECT ${cast(`min(${expr})`)}, ${cast(`max(${expr})`)}, count(${expr}) FROM ${relationSql(table)}`))[0] ?? [];
  const out: { min?: number | string; max?: number | string; count: number } = { count: num(r[2]) };
  if (typeof r[0] === 'number' || typeof r[0] === 'string') out.min = r[0];
  if (typeof r[1] === 'number' || typeof r[1] === 'string') out.max = r[1];
  return out;
}

async function buildColumns(run: RunSql, t: IngestedTable): Promise<{ rowCount: number; columns: ColumnMeta[] }> {
  let rowCount = 0;
  const stats: ColumnStats[] = [];
  // Wide tables of modest length count distinct values apart, in one grouped scan per batch.
  const apart = t.columns.length > WIDE_TABLE && t.rowCount <= EXACT_DISTINCT_ROWS;
  if (apart) {
    // Numbers and text of a wide table of modest length: grouped, up to 2,000 columns a statement.
    const kinds = t.columns.map((c) => kindOf(c.type));
    const g = await groupedStats(run, t.table, t.columns, kinds, groupedBatch(t.rowCount));
    rowCount = g.rowCount;
    stats.push(...g.stats);
  }
  const known = knownDistinct(t);
  // Whatever is left (every column of other tables) in rows of aggregates.
  const rowWise = t.columns.map((c, i) => ({ c, i })).filter(({ c }) => !apart || !GROUPED_KINDS.has(kindOf(c.type)));
  for (let from = 0; (from === 0 && !apart) || from < rowWise.length; from += STATS_BATCH) {
    const at = rowWise.slice(from, from + STATS_BATCH);
    const batch = at.map(({ c }) => c);
    const sampled = t.rowCount > EXACT_DISTINCT_ROWS;
    const q = statsSql(t.table, batch, t.rowCount, apart, sampled, known);
    const row = (await run(q.sql))[0] ?? [];
    rowCount = num(row[0]);
    const read = readStats(row, batch.length, q.width);
    batch.forEach((c, k) => {
      const exact = known.get(c.name);
      const r = read[k];
      if (exact !== undefined && r !== undefined) r.distinct = exact;
    });
    if (sampled) await sampledStyles(run, t.table, batch, read);
    at.forEach(({ i }, k) => {
      stats[i] = read[k] ?? stats[i] ?? emptyStats();
    });
  }
  const size = apart ? groupedBatch(t.rowCount) : 0;
  for (let from = 0; apart && from < t.columns.length; from += size) {
    (await distinctCounts(run, t.table, t.columns.slice(from, from + size))).forEach((d, i) => Object.assign(stats[from + i] ?? {}, { distinct: d }));
  }
  const columns: ColumnMeta[] = [];
  for (const [i, c] of t.columns.entries()) {
    const s = stats[i] ?? emptyStats();
    const kind = kindOf(c.type);
    const meta: ColumnMeta = {
      name: c.name, type: c.type, kind, expr: quoteIdent(c.name), converted: false, tokens: nameTokens(c.name), nonNull: s.nonNull,
      distinct: s.distinct, unique: rowCount > 1 && s.nonNull === rowCount && s.distinct >= rowCount * (rowCount <= EXACT_DISTINCT_ROWS ? 1 : 0.97),
    };
    if (s.min !== undefined) meta.min = s.min;
    if (s.max !== undefined) meta.max = s.max;
    // A station or part number column ("117", "1083", "c168") is codes, even when most are digits.
    const style = kind === 'text' && s.codes === 0 ? pickNumberStyle(s.styles, s.nonEmpty) : undefined;
    if (style !== undefined) {
      // Numbers written as text ("1,234", "$5", "45%", "1.008(2)"): typed by expression, text kept.
      Object.assign(meta, { kind: 'numeric', converted: true, expr: numberTextSql(c.name, style, ''), sqlTemplate: numberTextSql(c.name, style) });
      const r = await rangeOf(run, t.table, meta.expr, false);
      Object.assign(meta, { min: r.min, max: r.max, nonNull: r.count, unreadable: Math.max(0, s.nonEmpty - r.count) });
      if ((meta.unreadable ?? 0) > 0) {
        // "n/a", "-", "unknown" say "no value"; only other text ("Ancient") is a value that is not a number.
        const col = quoteIdent(c.name);
        const r2 = (await run(`SELECT count(*), any_value(trim(${col})) FROM ${relationSql(t.table)} WHERE trim(${col}) <> '' AND ${meta.expr} IS NULL AND lower(trim(${col})) NOT IN (${NULL_MARKER_SQL})`))[0] ?? [];
        meta.unreadable = num(r2[0]);
        if (typeof r2[1] === 'string') meta.unreadableExample = r2[1].slice(0, 40);
      }
    } else if (kind === 'text' && s.years === 0) {
      // No value holds a year: neither dates nor quarters (see yearRuns).
    } else if (kind === 'text' && s.distinct > 1 && (await holdsQuarters(run, t.table, c.name))) {
      Object.assign(meta, { kind: 'temporal', converted: true, expr: quarterTextSql(c.name, ''), sqlTemplate: quarterTextSql(c.name), partsGrain: 'quarter' });
      const r = await rangeOf(run, t.table, meta.expr, true);
      Object.assign(meta, { min: r.min, max: r.max, nonNull: r.count });
    } else if (kind === 'text' && s.distinct > 1) {
      const formats = await textDateFormats(run, t.table, c.name);
      if (formats !== undefined) {
        Object.assign(meta, { kind: 'temporal', converted: true, dateFormats: formats, expr: textDateSql(c.name, formats, ''), sqlTemplate: textDateSql(c.name, formats) });
        const r = await rangeOf(run, t.table, meta.expr, true);
        Object.assign(meta, { min: r.min, max: r.max, nonNull: r.count });
      }
    }
    columns.push(meta);
  }
  for (const date of [dateFromParts(columns), dateTimeFromParts(columns)]) {
    if (date?.sqlTemplate === undefined) continue;
    const expr = date.sqlTemplate.split(QUALIFIER).join('');
    const r = await rangeOf(run, t.table, expr, true);
    Object.assign(date, { expr, min: r.min, max: r.max, nonNull: r.count, distinct: num((await run(`SELECT count(DISTINCT ${expr}) FROM ${relationSql(t.table)}`))[0]?.[0]) });
    columns.push(date);
  }
  const margin = marginFromPriceAndCost(columns);
  if (margin?.sqlTemplate !== undefined) {
    const expr = margin.sqlTemplate.split(QUALIFIER).join('');
    const r = await rangeOf(run, t.table, expr, false);
    Object.assign(margin, { expr, min: r.min, max: r.max, nonNull: r.count, distinct: num((await run(`SELECT count(DISTINCT ${expr}) FROM ${relationSql(t.table)}`))[0]?.[0]) });
    columns.push(margin);
  }
  const span = await spanDuration(run, t.table, columns);
  if (span !== undefined) columns.push(span);
  for (const c of columns) {
    const role = ingestRole(c);
    if (role !== undefined) c.role = role;
  }
  await indexValues(run, t.table, columns, rowCount);
  for (const c of await keyedMeasures(run, t.table, columns)) {
    const role = ingestRole(c);
    columns.push(role !== undefined ? { ...c, role } : c);
  }
  await markTotalRows(run, t.table, columns);
  await markPlaceGroups(run, t.table, columns);
  await markMissingCodes(run, t.table, columns);
  await markEntityAttributes(run, t.table, rowCount, columns);
  return { rowCount, columns };
}

/** Each table with its unique alias (in source order), label and name tokens. */
function layout(sources: ReadonlyArray<{ source: DataSource; ingest: { kind: string; tables?: IngestedTable[] } }>): Array<Omit<TableMeta, 'rowCount' | 'columns'>> {
  const out: Array<Omit<TableMeta, 'rowCount' | 'columns'>> = [];
  const used = new Set<string>();
  for (const { source, ingest } of sources) {
    for (const t of ingest.tables ?? []) {
      let alias = baseAlias(source, t);
      for (let n = 2; used.has(alias); n++) alias = `${baseAlias(source, t)}_${n}`;
      used.add(alias);
      const name = source.fileName.replace(/\.[^.]+$/, '');
      const long = longShape(t, t.sheet === undefined ? name : t.sheet);
      // A wide table is read long: its columns are the long ones, and its scan statistics (of the wide file) do not apply.
      const ingested: IngestedTable = long === undefined ? t : { table: t.table, rowCount: t.rowCount * long.years.length, columns: longColumns(t, long), ...(t.sheet !== undefined ? { sheet: t.sheet } : {}), ...(t.origin !== undefined ? { origin: t.origin } : {}), ...(t.inPlace !== undefined ? { inPlace: t.inPlace } : {}) };
      out.push({ table: t.table, alias, label: tableLabel(source, t), source, ingested, tokens: nameTokens(t.sheet === undefined ? name : `${name} ${t.sheet}`), ...(long !== undefined ? { long } : {}) });
    }
  }
  return out;
}

/** Runs SQL for a job: `signal` is the job's, so a cancelled job stops its statement too. */
export type RunJobSql = (sql: string, signal?: AbortSignal) => Promise<unknown[][]>;

/** Builds and caches {@link TableMeta} for the selected sources. */
export class SchemaIndex {
  private readonly cache = new Map<string, Promise<{ rowCount: number; columns: ColumnMeta[] }>>();

  constructor(private readonly run: RunJobSql) {}

  /**
   * Tables of the tabular sources, with unique aliases in source order. Every statement run for
   * them stops when `signal` (the asking job's) aborts.
   */
  async tables(sources: ReadonlyArray<{ source: DataSource; ingest: { kind: string; tables?: IngestedTable[] } }>, signal?: AbortSignal): Promise<TableMeta[]> {
    const out: TableMeta[] = [];
    for (const l of layout(sources)) {
      if (l.long === undefined) {
        out.push({ ...l, ...(await this.columns(l.source, l.ingested, signal)) });
        continue;
      }
      const long = await withoutEmptyYears((sql) => this.run(sql, signal), l.table, l.long);
      out.push({ ...l, long, ...(await this.columns(l.source, { ...l.ingested, table: `(${longSelect(relationSql(l.table), long)})` }, signal)) });
    }
    return out;
  }

  /**
   * The tables as their ingest scans described them, without a query (files read in place carry
   * such statistics), or undefined when a table has none. Enough to read an overview question;
   * value lists of text columns with more than 50 distinct values are missing.
   */
  quickTables(sources: ReadonlyArray<{ source: DataSource; ingest: { kind: string; tables?: IngestedTable[] } }>): TableMeta[] | undefined {
    const out: TableMeta[] = [];
    for (const l of layout(sources)) {
      const stats = l.ingested.stats;
      if (stats === undefined) return undefined;
      out.push({ ...l, rowCount: stats.rows, columns: columnsFromStats(l.ingested, stats) });
    }
    return out.length > 0 ? out : undefined;
  }

  private async columns(source: DataSource, t: IngestedTable, signal: AbortSignal | undefined): Promise<{ rowCount: number; columns: ColumnMeta[] }> {
    // A re-ingested source keeps its table name; its size, row count or columns tell the versions apart.
    // A file read in place may be edited without changing any of these: its read's version tells.
    const key = `${t.table}|${source.size ?? ''}|${source.fileName}|${t.rowCount}|${t.inPlace?.version ?? ''}|${t.columns.map((c) => `${c.name}:${c.type}`).join(',')}`;
    // A build is shared by the jobs asking meanwhile, and stops with the job that started it; a job
    // still asking then builds again with its own signal (failures are never cached).
    for (let attempt = 0; ; attempt++) {
      let hit = this.cache.get(key);
      if (hit === undefined) {
        hit = buildColumns((sql) => this.run(sql, signal), t);
        hit.catch(() => {
          if (this.cache.get(key) === hit) this.cache.delete(key);
        });
        if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, hit);
      }
      let r: { rowCount: number; columns: ColumnMeta[] };
      try {
        r = await hit;
      } catch (err) {
        if (signal?.aborted !== true && attempt < 3 && err instanceof Error && err.name === 'AbortError') continue;
        throw err;
      }
      // Each question may adjust nothing, but hand out copies so no caller can corrupt the cache.
      return { rowCount: r.rowCount, columns: r.columns.map((c) => ({ ...c })) };
    }
  }
}
