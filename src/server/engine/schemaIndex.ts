/**
 * What the question understanding knows about each selected table: columns with their kind, range,
 * distinct count and (for categories) every value, so "in Europe" can be found in the data. Built
 * with two aggregate scans per table and cached per table version, so follow-up questions and
 * repeated questions on big tables do not pay for it again.
 */
import type { DataSource } from '../../shared/domain';
import type { IngestedTable } from '../engine';
import { quoteIdent, quoteLiteral, slug } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import { classifyType } from '../profile/profileSql';
import { ABBREVIATIONS } from './lexicon';
import { identifierWords, stem } from './text';
import type { ColumnKind, ColumnMeta, TableMeta } from './types';

/** Runs a read-only statement; the engine passes the store's query with its deadline. */
export type RunSql = (sql: string) => Promise<unknown[][]>;

/** Text columns with at most this many distinct values have their values indexed. */
export const MAX_INDEXED_VALUES = 1000;
/** A text column is treated as numeric when this share of its non-empty values are numbers. */
const NUMERIC_TEXT_SHARE = 0.8;
/** Rows looked at to recognise dates written as text in several formats. */
const DATE_SAMPLE_ROWS = 2000;
/** Above this size distinct counts are approximate (HyperLogLog), which is plenty for choosing roles. */
const EXACT_DISTINCT_ROWS = 200_000;
const CACHE_LIMIT = 64;

const TEXT_DATE_FORMATS = [
  '%Y-%m-%d', '%Y/%m/%d', '%m/%d/%Y', '%d/%m/%Y', '%d.%m.%Y', '%d-%m-%Y', '%m-%d-%Y', '%Y.%m.%d', '%d %b %Y',
  '%d-%b-%Y', '%b %d %Y', '%b %d, %Y', '%d %B %Y', '%B %d %Y', '%B %d, %Y', '%Y-%m-%d %H:%M:%S', '%Y-%m-%dT%H:%M:%S',
  '%m/%d/%Y %H:%M', '%d.%m.%Y %H:%M', '%Y%m%d',
];

const RESERVED = new Set([
  'all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc', 'both', 'case', 'cast', 'check', 'collate', 'column',
  'constraint', 'create', 'default', 'desc', 'distinct', 'do', 'else', 'end', 'except', 'false', 'fetch', 'for',
  'foreign', 'from', 'grant', 'group', 'having', 'in', 'initially', 'intersect', 'into', 'lateral', 'leading', 'limit',
  'not', 'null', 'offset', 'on', 'only', 'or', 'order', 'placing', 'primary', 'references', 'returning', 'select',
  'some', 'symmetric', 'table', 'then', 'to', 'trailing', 'true', 'union', 'unique', 'user', 'using', 'variadic',
  'when', 'where', 'window', 'with', 'pivot', 'unpivot', 'qualify', 'describe', 'show', 'summarize', 'values',
]);

/** An identifier as SQL: bare when it is a plain lower-case word, quoted otherwise. */
export function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : quoteIdent(name);
}

/** Stems of an identifier, with abbreviations expanded (`qty` also yields `quantity`). */
export function nameTokens(name: string): string[] {
  const out: string[] = [];
  for (const w of identifierWords(name)) {
    const s = stem(w);
    out.push(s);
    const full = ABBREVIATIONS[s] ?? ABBREVIATIONS[w];
    if (full !== undefined && full !== s) out.push(full);
  }
  return out;
}

function kindOf(type: string): ColumnKind {
  if (/^BOOL/i.test(type)) return 'boolean';
  const cls = classifyType(type);
  return cls === 'numeric' ? 'numeric' : cls === 'temporal' ? 'temporal' : cls === 'text' ? 'text' : 'other';
}

/** Label users know a table by. */
export function tableLabel(source: DataSource, t: IngestedTable): string {
  return t.sheet === undefined ? source.fileName : `${source.fileName}, sheet ${t.sheet}`;
}

function baseAlias(source: DataSource, t: IngestedTable): string {
  const base = source.fileName.replace(/\.[^.]+$/, '');
  let a = slug(t.sheet === undefined ? base : `${base}_${t.sheet}`, 40);
  if (/^[0-9]/.test(a)) a = `t_${a}`;
  if (RESERVED.has(a)) a = `${a}_data`;
  return a;
}

interface ColumnStats {
  nonNull: number;
  distinct: number;
  min?: number | string;
  max?: number | string;
  numericText: number;
  nonEmpty: number;
}

function statsSql(table: string, columns: IngestedTable['columns'], rowCount: number): string {
  const t = quoteIdent(table);
  const parts: string[] = ['count(*)'];
  columns.forEach((c, i) => {
    const col = quoteIdent(c.name);
    const kind = kindOf(c.type);
    const distinct = rowCount <= EXACT_DISTINCT_ROWS || kind === 'other' ? `count(DISTINCT ${col})` : `approx_count_distinct(${col})`;
    parts.push(`count(${col}) AS nn${i}`, kind === 'other' ? `NULL AS d${i}` : `${distinct} AS d${i}`);
    if (kind === 'numeric') parts.push(`CAST(min(${col}) AS DOUBLE) AS lo${i}`, `CAST(max(${col}) AS DOUBLE) AS hi${i}`);
    else if (kind === 'temporal') parts.push(`CAST(min(${col}) AS VARCHAR) AS lo${i}`, `CAST(max(${col}) AS VARCHAR) AS hi${i}`);
    else parts.push(`NULL AS lo${i}`, `NULL AS hi${i}`);
    if (kind === 'text') parts.push(`count(TRY_CAST(trim(${col}) AS DOUBLE)) AS nt${i}`, `count(*) FILTER (WHERE trim(${col}) <> '') AS ne${i}`);
    else parts.push(`NULL AS nt${i}`, `NULL AS ne${i}`);
  });
  return `SELECT ${parts.join(', ')} FROM ${t}`;
}

function readStats(row: unknown[], count: number): ColumnStats[] {
  const out: ColumnStats[] = [];
  for (let i = 0; i < count; i++) {
    const base = 1 + i * 6;
    const s: ColumnStats = { nonNull: num(row[base]), distinct: num(row[base + 1]), numericText: num(row[base + 4]), nonEmpty: num(row[base + 5]) };
    const lo = row[base + 2];
    const hi = row[base + 3];
    if (typeof lo === 'number' || typeof lo === 'string') s.min = lo;
    if (typeof hi === 'number' || typeof hi === 'string') s.max = hi;
    out.push(s);
  }
  return out;
}

/** Formats that parse a text column's sampled values, best first, if they cover nearly all of them. */
async function textDateFormats(run: RunSql, table: string, column: string): Promise<string[] | undefined> {
  const col = quoteIdent(column);
  const counts = TEXT_DATE_FORMATS.map((f, i) => `count(try_strptime(v, ${quoteLiteral(f)})) AS f${i}`).join(', ');
  const rows = await run(`WITH s AS (SELECT trim(${col}) AS v FROM ${quoteIdent(table)} WHERE trim(${col}) <> '' LIMIT ${DATE_SAMPLE_ROWS})
SELECT count(*), ${counts}, count(*) FILTER (WHERE NOT regexp_matches(v, '(^|[^0-9])[0-9]{4}([^0-9]|$)')) FROM s`);
  const r = rows[0] ?? [];
  const total = num(r[0]);
  if (total === 0 || num(r[TEXT_DATE_FORMATS.length + 1]) > 0) return undefined;
  const ranked = TEXT_DATE_FORMATS.map((f, i) => ({ f, n: num(r[i + 1]) })).filter((x) => x.n > 0).sort((a, b) => b.n - a.n);
  if (ranked.length === 0 || (ranked[0]?.n ?? 0) === total) return undefined; // one format: the store already converted such columns
  const formats = ranked.map((x) => x.f);
  const cover = formats.map((f) => `try_strptime(v, ${quoteLiteral(f)})`).join(', ');
  const covered = await run(`WITH s AS (SELECT trim(${col}) AS v FROM ${quoteIdent(table)} WHERE trim(${col}) <> '' LIMIT ${DATE_SAMPLE_ROWS})
SELECT count(coalesce(${cover})) FROM s`);
  return num(covered[0]?.[0]) >= total * 0.95 ? formats : undefined;
}

/** SQL turning a text column of mixed date formats into a DATE (or TIMESTAMP when times appear). */
export function mixedDateExpr(column: string, formats: string[], qualifier?: string): string {
  const col = qualifier === undefined ? quoteIdent(column) : `${qualifier}.${quoteIdent(column)}`;
  const timed = formats.some((f) => f.includes('%H'));
  const type = timed ? 'TIMESTAMP' : 'DATE';
  return `coalesce(${formats.map((f) => `CAST(try_strptime(trim(${col}), ${quoteLiteral(f)}) AS ${type})`).join(', ')})`;
}

async function buildColumns(run: RunSql, t: IngestedTable): Promise<{ rowCount: number; columns: ColumnMeta[] }> {
  const statsRow = (await run(statsSql(t.table, t.columns, t.rowCount)))[0] ?? [];
  const rowCount = num(statsRow[0]);
  const stats = readStats(statsRow, t.columns.length);
  const columns: ColumnMeta[] = [];
  for (const [i, c] of t.columns.entries()) {
    const s = stats[i] ?? { nonNull: 0, distinct: 0, numericText: 0, nonEmpty: 0 };
    let kind = kindOf(c.type);
    let expr = quoteIdent(c.name);
    let converted = false;
    const meta: ColumnMeta = {
      name: c.name, type: c.type, kind, expr, converted, tokens: nameTokens(c.name), nonNull: s.nonNull,
      distinct: s.distinct, unique: rowCount > 1 && s.nonNull === rowCount && s.distinct >= rowCount * (rowCount <= EXACT_DISTINCT_ROWS ? 1 : 0.97),
    };
    if (kind === 'text' && s.nonEmpty > 0 && s.numericText >= s.nonEmpty * NUMERIC_TEXT_SHARE) {
      kind = 'numeric';
      expr = `TRY_CAST(trim(${quoteIdent(c.name)}) AS DOUBLE)`;
      converted = true;
      const r = (await run(`SELECT min(${expr}), max(${expr}), count(${expr}) FROM ${quoteIdent(t.table)}`))[0] ?? [];
      meta.min = num(r[0]);
      meta.max = num(r[1]);
      meta.nonNull = num(r[2]);
    } else if (kind === 'text' && s.distinct > 1) {
      const formats = await textDateFormats(run, t.table, c.name);
      if (formats !== undefined) {
        kind = 'temporal';
        expr = mixedDateExpr(c.name, formats);
        meta.dateFormats = formats;
        converted = true;
        const r = (await run(`SELECT CAST(min(${expr}) AS VARCHAR), CAST(max(${expr}) AS VARCHAR), count(${expr}) FROM ${quoteIdent(t.table)}`))[0] ?? [];
        if (typeof r[0] === 'string') meta.min = r[0];
        if (typeof r[1] === 'string') meta.max = r[1];
        meta.nonNull = num(r[2]);
      }
    }
    if (!converted) {
      if (s.min !== undefined) meta.min = s.min;
      if (s.max !== undefined) meta.max = s.max;
    }
    Object.assign(meta, { kind, expr, converted });
    columns.push(meta);
  }
  await indexValues(run, t.table, columns);
  return { rowCount, columns };
}

/** Loads every value of the low-cardinality text columns in one statement. */
async function indexValues(run: RunSql, table: string, columns: ColumnMeta[]): Promise<void> {
  const wanted = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.kind === 'text' && !c.converted && c.distinct > 0 && c.distinct <= MAX_INDEXED_VALUES);
  if (wanted.length === 0) return;
  const t = quoteIdent(table);
  const sql = wanted
    .map(({ c, i }) => `(SELECT ${i} AS i, v FROM (SELECT DISTINCT CAST(${quoteIdent(c.name)} AS VARCHAR) AS v FROM ${t} WHERE ${quoteIdent(c.name)} IS NOT NULL) LIMIT ${MAX_INDEXED_VALUES + 1})`)
    .join('\nUNION ALL\n');
  const rows = await run(sql);
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
  }
}

/** Builds and caches {@link TableMeta} for the selected sources. */
export class SchemaIndex {
  private readonly cache = new Map<string, Promise<{ rowCount: number; columns: ColumnMeta[] }>>();

  constructor(private readonly run: RunSql) {}

  /** Tables of the tabular sources, with unique aliases in source order. */
  async tables(sources: ReadonlyArray<{ source: DataSource; ingest: { kind: string; tables?: IngestedTable[] } }>): Promise<TableMeta[]> {
    const out: TableMeta[] = [];
    const used = new Set<string>();
    for (const { source, ingest } of sources) {
      for (const t of ingest.tables ?? []) {
        let alias = baseAlias(source, t);
        for (let n = 2; used.has(alias); n++) alias = `${baseAlias(source, t)}_${n}`;
        used.add(alias);
        const { rowCount, columns } = await this.columns(source, t);
        const name = source.fileName.replace(/\.[^.]+$/, '');
        out.push({
          table: t.table, alias, label: tableLabel(source, t), source, ingested: t, rowCount, columns,
          tokens: nameTokens(t.sheet === undefined ? name : `${name} ${t.sheet}`),
        });
      }
    }
    return out;
  }

  private columns(source: DataSource, t: IngestedTable): Promise<{ rowCount: number; columns: ColumnMeta[] }> {
    // A re-ingested source keeps its table name; its size, row count or columns tell the versions apart.
    const key = `${t.table}|${source.size ?? ''}|${source.fileName}|${t.rowCount}|${t.columns.map((c) => `${c.name}:${c.type}`).join(',')}`;
    let hit = this.cache.get(key);
    if (hit === undefined) {
      hit = buildColumns(this.run, t);
      // Failures are not cached: the next question tries again.
      hit.catch(() => this.cache.delete(key));
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, hit);
    }
    // Each question may adjust nothing, but hand out copies so no caller can corrupt the cache.
    return hit.then((r) => ({ rowCount: r.rowCount, columns: r.columns.map((c) => ({ ...c })) }));
  }
}
