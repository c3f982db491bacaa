/**
 * The explorer's bodies checked and turned into SQL. Every identifier is quoted and every value is a
 * literal written by this code; nothing a client sends reaches DuckDB as SQL text. A body naming a
 * column the view lacks, a value of the wrong type, or more than the limits allow is a 400 in plain
 * words. Regular expressions are RE2 (DuckDB's `regexp_matches`); an invalid one is checked for by
 * DuckDB itself before the query runs (see exploreRoutes.ts).
 */
import { EXPLORE_LIMITS, type ExploreColumn, type ExploreFilter, type ExploreKind, type ExploreQuery, type ExploreSort } from '../../shared/explore';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError } from '../http/envelope';

/** A refused body: HTTP 400 with the reason (the explorer's routes are no contract path, so no code-100-with-200 quirk). */
export const badRequest = (msg: string): ApiError => new ApiError(ErrorCode.INVALID_PARAMS, msg, 400);
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { cutColumns, type CellCut } from '../duckdb/queryRunner';

/** How a DuckDB type is shown and filtered. */
export function kindOf(type: string): ExploreKind {
  const t = type.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/.test(t)) return 'number';
  if (t === 'DATE') return 'date';
  if (t.startsWith('TIMESTAMP')) return 'datetime';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'VARCHAR' || t.startsWith('VARCHAR(')) return 'text';
  return 'other';
}

export function exploreColumns(cols: ReadonlyArray<{ name: string; type: string }>): ExploreColumn[] {
  return cols.map((c) => ({ name: c.name, type: c.type, kind: kindOf(c.type) }));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown, field: string): string {
  if (typeof v !== 'string') throw badRequest(`${field}: must be text`);
  if (v.length > EXPLORE_LIMITS.text) throw badRequest(`${field}: at most ${EXPLORE_LIMITS.text} characters`);
  return v;
}

function flag(v: unknown, field: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw badRequest(`${field}: must be true or false`);
  return v;
}

function column(v: unknown, field: string, columns: readonly ExploreColumn[]): ExploreColumn {
  const name = text(v, field);
  const col = columns.find((c) => c.name === name);
  if (col === undefined) throw badRequest(`${field}: this view has no column "${name.slice(0, 100)}"`);
  return col;
}

/** ISO date or timestamp: 2024-01-31, 2024-01-31T10:00, 2024-01-31 10:00:00.5. */
const ISO = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?$/;

function bound(v: unknown, field: string, col: ExploreColumn): number | string | undefined {
  if (v === undefined || v === null) return undefined;
  if (col.kind === 'number') {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`${field}: "${col.name}" holds numbers, so the bound must be a number`);
    return v;
  }
  if (col.kind === 'date' || col.kind === 'datetime') {
    if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(Date.parse(v.slice(0, 10)))) throw badRequest(`${field}: "${col.name}" holds dates, so the bound must be an ISO date such as 2024-01-31 (or 2024-01-31T10:00)`);
    return v;
  }
  throw badRequest(`${field}: "between" needs a column of numbers or dates; "${col.name}" holds ${col.kind === 'other' ? col.type : col.kind}`);
}

function filterOf(raw: unknown, i: number, columns: readonly ExploreColumn[]): ExploreFilter {
  const f = `filters[${i}]`;
  if (!isObject(raw)) throw badRequest(`${f}: must be an object`);
  const col = column(raw['column'], `${f}.column`, columns);
  const negate = flag(raw['negate'], `${f}.negate`);
  switch (raw['op']) {
    case 'contains':
    case 'startsWith':
    case 'regex': {
      const out: ExploreFilter = { column: col.name, op: raw['op'], text: text(raw['text'], `${f}.text`) };
      const cs = flag(raw['caseSensitive'], `${f}.caseSensitive`);
      if (cs !== undefined) out.caseSensitive = cs;
      if (negate !== undefined) out.negate = negate;
      return out;
    }
    case 'between': {
      const out: ExploreFilter = { column: col.name, op: 'between' };
      const min = bound(raw['min'], `${f}.min`, col);
      const max = bound(raw['max'], `${f}.max`, col);
      if (min === undefined && max === undefined) throw badRequest(`${f}: "between" needs min, max or both`);
      if (min !== undefined) out.min = min;
      if (max !== undefined) out.max = max;
      return out;
    }
    case 'in': {
      const values = raw['values'];
      if (!Array.isArray(values) || values.length === 0 || values.length > EXPLORE_LIMITS.inValues) throw badRequest(`${f}.values: a list of 1 to ${EXPLORE_LIMITS.inValues} values`);
      const out: ExploreFilter = { column: col.name, op: 'in', values: values.map((v, j) => text(v, `${f}.values[${j}]`)) };
      // A number is shown as JSON writes it (20, not DuckDB's 20.0), so numbers are compared as numbers.
      if (col.kind === 'number' && out.values.some((v) => v.trim() === '' || !Number.isFinite(Number(v)))) throw badRequest(`${f}.values: "${col.name}" holds numbers, so each value must be a number`);
      if (negate !== undefined) out.negate = negate;
      return out;
    }
    case 'missing': {
      const out: ExploreFilter = { column: col.name, op: 'missing' };
      if (negate !== undefined) out.negate = negate;
      return out;
    }
    default:
      throw badRequest(`${f}.op: one of contains, startsWith, regex, between, in, missing`);
  }
}

/** A query body checked against the view's columns; absent means no sort and no filters. */
export function parseQuery(raw: unknown, columns: readonly ExploreColumn[]): ExploreQuery {
  if (raw === undefined || raw === null) return { sort: [], filters: [] };
  if (!isObject(raw)) throw badRequest('query: must be an object with sort and filters');
  const sortRaw = raw['sort'] ?? [];
  const filtersRaw = raw['filters'] ?? [];
  if (!Array.isArray(sortRaw) || sortRaw.length > EXPLORE_LIMITS.sort) throw badRequest(`query.sort: a list of at most ${EXPLORE_LIMITS.sort} columns`);
  if (!Array.isArray(filtersRaw) || filtersRaw.length > EXPLORE_LIMITS.filters) throw badRequest(`query.filters: a list of at most ${EXPLORE_LIMITS.filters} conditions`);
  const sort: ExploreSort[] = sortRaw.map((s: unknown, i) => {
    if (!isObject(s)) throw badRequest(`query.sort[${i}]: must be an object`);
    return { column: column(s['column'], `query.sort[${i}].column`, columns).name, desc: flag(s['desc'], `query.sort[${i}].desc`) === true };
  });
  if (new Set(sort.map((s) => s.column)).size !== sort.length) throw badRequest('query.sort: each column at most once');
  return { sort, filters: filtersRaw.map((f: unknown, i) => filterOf(f, i, columns)) };
}

/** The patterns of a query's regex filters (checked by DuckDB before the query runs). */
export function regexesOf(q: ExploreQuery): string[] {
  return q.filters.flatMap((f) => (f.op === 'regex' ? [f.text] : []));
}

const asText = (col: string): string => `CAST(${col} AS VARCHAR)`;

function dateBound(v: string, col: ExploreColumn, end: boolean): string {
  const dateOnly = v.length === 10;
  if (col.kind === 'date') return `DATE ${quoteLiteral(v.slice(0, 10))}`;
  // A day as the end of a timestamp range means the whole day (inclusive, as the filter bar says).
  if (end && dateOnly) return `(DATE ${quoteLiteral(v)} + INTERVAL 1 DAY)`;
  return `${dateOnly ? 'DATE' : 'TIMESTAMP'} ${quoteLiteral(v.replace('T', ' '))}`;
}

function conditionSql(f: ExploreFilter, columns: readonly ExploreColumn[]): string {
  const col = columns.find((c) => c.name === f.column) as ExploreColumn;
  const ref = quoteIdent(f.column);
  const not = (sql: string, negate: boolean | undefined): string => (negate === true ? `NOT coalesce(${sql}, false)` : sql);
  switch (f.op) {
    case 'contains':
    case 'startsWith':
    case 'regex': {
      const cs = f.caseSensitive === true;
      let sql: string;
      if (f.op === 'regex') sql = `regexp_matches(${asText(ref)}, ${quoteLiteral(f.text)}${cs ? '' : `, 'i'`})`;
      else {
        const fn = f.op === 'contains' ? 'contains' : 'starts_with';
        sql = cs ? `${fn}(${asText(ref)}, ${quoteLiteral(f.text)})` : `${fn}(lower(${asText(ref)}), ${quoteLiteral(f.text.toLowerCase())})`;
      }
      return not(sql, f.negate);
    }
    case 'between': {
      const parts: string[] = [];
      const lit = (v: number | string, end: boolean): string => (typeof v === 'number' ? String(v) : dateBound(v, col, end));
      if (f.min !== undefined) parts.push(`${ref} >= ${lit(f.min, false)}`);
      if (f.max !== undefined) parts.push(col.kind === 'datetime' && typeof f.max === 'string' && f.max.length === 10 ? `${ref} < ${lit(f.max, true)}` : `${ref} <= ${lit(f.max, true)}`);
      return `(${parts.join(' AND ')})`;
    }
    case 'in':
      if (col.kind === 'number') return not(`CAST(${ref} AS DOUBLE) IN (${f.values.map((v) => `CAST(${quoteLiteral(String(Number(v)))} AS DOUBLE)`).join(', ')})`, f.negate);
      return not(`${asText(ref)} IN (${f.values.map(quoteLiteral).join(', ')})`, f.negate);
    case 'missing':
      return f.negate === true ? `${ref} IS NOT NULL` : `${ref} IS NULL`;
  }
}

/** `WHERE ...` for the filters, or '' without any. */
export function whereSql(q: ExploreQuery, columns: readonly ExploreColumn[]): string {
  return q.filters.length === 0 ? '' : `WHERE ${q.filters.map((f) => conditionSql(f, columns)).join('\n  AND ')}`;
}

/** `ORDER BY ...` for the sort, then `tiebreak` (the file's row order) so pages never overlap. */
export function orderSql(q: ExploreQuery, tiebreak: string | undefined): string {
  const keys = q.sort.map((s) => `${quoteIdent(s.column)} ${s.desc ? 'DESC' : 'ASC'} NULLS LAST`);
  if (tiebreak !== undefined) keys.push(tiebreak);
  return keys.length === 0 ? '' : `ORDER BY ${keys.join(', ')}`;
}

export function selectList(columns: readonly ExploreColumn[]): string {
  return columns.map((c) => quoteIdent(c.name)).join(', ');
}

/** Longest text of one cell sent to the grid (a cell is for looking at, not for reading a document). */
export const CELL_CHARS = 2000;
/** Shortest a cell is cut to, however wide the table: more than a grid column shows. */
const MIN_CELL_CHARS = 24;
/** Text a page's cut cells may add up to: of a wide table of long text, 200 rows of 2,000 columns at 2,000 characters would be 800 MB. */
const PAGE_TEXT_CHARS = 16 * 1024 * 1024;

/** The length cells are cut to in a page of `rows` rows of `columns` columns (see {@link PAGE_TEXT_CHARS}). */
export function cellChars(columns: number, rows: number): number {
  return Math.max(MIN_CELL_CHARS, Math.min(CELL_CHARS, Math.floor(PAGE_TEXT_CHARS / Math.max(1, columns * rows))));
}

/**
 * `sql` (whose columns are `columns`, in order) with its text, blob and list cells cut to `chars` + 1
 * in the query itself, as the query runner would after preparing it once more to learn the types
 * (the runner marks the cells it finds longer than `chars`).
 */
export function cutCells(sql: string, columns: readonly ExploreColumn[], chars: number): string {
  const cuts = columns.map((c) => {
    const t = c.type.toUpperCase();
    const cut: CellCut = t === 'VARCHAR' || t === 'JSON' ? 'chars' : t === 'BLOB' || /\[\d*\]$/.test(t) ? 'items' : undefined;
    return { name: c.name, cut };
  });
  return cutColumns(sql, cuts, chars) ?? sql;
}
