/**
 * JSON records as a flat table people can ask about. DuckDB reads nested objects as STRUCT columns,
 * lists as LIST columns, objects keyed by codes as MAPs, and fields mixing numbers with "" (a common
 * way to write "no value") as JSON text. Questions name fields ("name", "area", "languages"), so:
 * - a nested object becomes one column per field, named by its path (`name.common`);
 * - a list or map of plain values becomes readable text (`FRA, DEU, POL`);
 * - a JSON field holding only numbers (and "" or null) becomes a number, only true/false a boolean,
 *   anything else text without JSON quotes ("" becomes NULL).
 * Objects with very many fields (a map written as an object) stay as they are. The select list is
 * returned so the shown SQL can rebuild the same table from the file.
 */
import {
  DuckDBListType, DuckDBMapType, DuckDBStructType, type DuckDBConnection, type DuckDBType,
} from '@duckdb/node-api';
import { uniqueColumnNames } from './columnNames';
import { quoteIdent } from './sqlText';

/** Objects with more fields than this are really maps ("labels": one field per language). */
const MAX_STRUCT_FIELDS = 40;
const MAX_DEPTH = 3;
/** Widest result kept; beyond it the rest of a record stays nested. */
const MAX_COLUMNS = 400;

interface Leaf {
  /** SQL path to the value (`"name"."common"`). */
  path: string;
  /** Readable column name (`name.common`). */
  name: string;
  type: DuckDBType;
}

const isScalar = (t: DuckDBType): boolean => !(t instanceof DuckDBStructType || t instanceof DuckDBListType || t instanceof DuckDBMapType);
const isJson = (t: DuckDBType): boolean => t.alias === 'JSON';

/** Many fields of one and the same nested shape ("labels": {de: {...}, fr: {...}, ...}) is a map, not a record. */
function mapLike(type: DuckDBStructType): boolean {
  const first = type.entryTypes[0];
  return type.entryCount >= 8 && first instanceof DuckDBStructType && type.entryTypes.every((t) => t.toString() === first.toString());
}

function leaves(path: string, name: string, type: DuckDBType, depth: number, out: Leaf[]): void {
  if (type instanceof DuckDBStructType && type.entryCount <= MAX_STRUCT_FIELDS && !mapLike(type) && depth < MAX_DEPTH && out.length < MAX_COLUMNS) {
    type.entryNames.forEach((entry, i) => {
      const t = type.entryTypes[i];
      if (t !== undefined) leaves(`${path}.${quoteIdent(entry)}`, `${name}.${entry}`, t, depth + 1, out);
    });
    return;
  }
  out.push({ path, name, type });
}

/** How a JSON-typed column's values are best read, from the kinds of values it holds. */
async function jsonReadings(conn: DuckDBConnection, table: string, cols: readonly Leaf[]): Promise<Map<string, 'number' | 'boolean' | 'text'>> {
  const out = new Map<string, 'number' | 'boolean' | 'text'>();
  if (cols.length === 0) return out;
  const parts = cols.map((c, i) => {
    const t = `json_type(${c.path})`;
    return [
      `count(*) FILTER (WHERE ${t} IN ('UBIGINT', 'BIGINT', 'DOUBLE')) AS n${i}`,
      `count(*) FILTER (WHERE ${t} = 'BOOLEAN') AS b${i}`,
      `count(*) FILTER (WHERE ${t} = 'VARCHAR' AND (${c.path} ->> '$') <> '') AS s${i}`,
      `count(*) FILTER (WHERE ${t} IN ('ARRAY', 'OBJECT')) AS o${i}`,
    ].join(', ');
  });
  const reader = await conn.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${quoteIdent(table)}`);
  const row = reader.getRows()[0] ?? [];
  cols.forEach((c, i) => {
    const [n, b, s, o] = [0, 1, 2, 3].map((k) => Number(row[i * 4 + k] ?? 0));
    if (s === 0 && o === 0 && b === 0 && (n ?? 0) > 0) out.set(c.name, 'number');
    else if (s === 0 && o === 0 && n === 0 && (b ?? 0) > 0) out.set(c.name, 'boolean');
    else out.set(c.name, 'text');
  });
  return out;
}

function leafSql(l: Leaf, json: Map<string, 'number' | 'boolean' | 'text'>): string {
  const t = l.type;
  if (isJson(t)) {
    const how = json.get(l.name) ?? 'text';
    const kind = `json_type(${l.path})`;
    if (how === 'number') return `CASE WHEN ${kind} IN ('UBIGINT', 'BIGINT', 'DOUBLE') THEN CAST(${l.path} AS DOUBLE) END`;
    if (how === 'boolean') return `CASE WHEN ${kind} = 'BOOLEAN' THEN CAST(${l.path} AS BOOLEAN) END`;
    return `CASE WHEN ${kind} = 'VARCHAR' THEN nullif(${l.path} ->> '$', '') ELSE CAST(${l.path} AS VARCHAR) END`;
  }
  if (t instanceof DuckDBListType && isScalar(t.valueType) && !isJson(t.valueType)) return `nullif(array_to_string(${l.path}, ', '), '')`;
  if (t instanceof DuckDBMapType && isScalar(t.valueType) && !isJson(t.valueType)) return `nullif(array_to_string(map_values(${l.path}), ', '), '')`;
  return l.path;
}

/**
 * The select list that flattens `table` (an ingested JSON file), or undefined when it is flat and
 * typed already. Column references are relative to the file's own columns.
 */
export async function jsonSelectList(conn: DuckDBConnection, table: string): Promise<string[] | undefined> {
  const reader = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
  const all: Leaf[] = [];
  reader.columnNames().forEach((name, i) => leaves(quoteIdent(name), name, reader.columnType(i), 0, all));
  const nested = all.some((l) => l.path.includes('"."'));
  const changes = nested || all.some((l) => isJson(l.type) || l.type instanceof DuckDBListType || l.type instanceof DuckDBMapType);
  if (!changes) return undefined;
  const json = await jsonReadings(conn, table, all.filter((l) => isJson(l.type)));
  const names = uniqueColumnNames(all.map((l) => l.name));
  return all.map((l, i) => {
    const expr = leafSql(l, json);
    const name = names[i] ?? l.name;
    return expr === quoteIdent(name) ? expr : `${expr} AS ${quoteIdent(name)}`;
  });
}

/** Replaces `table` by its flattened form (inside the caller's transaction). */
export async function flattenJsonTable(conn: DuckDBConnection, table: string): Promise<string[] | undefined> {
  const select = await jsonSelectList(conn, table);
  if (select === undefined) return undefined;
  const tmp = `${table}__flat`;
  await conn.run(`CREATE TABLE ${quoteIdent(tmp)} AS SELECT ${select.join(', ')} FROM ${quoteIdent(table)}`);
  await conn.run(`DROP TABLE ${quoteIdent(table)}`);
  await conn.run(`ALTER TABLE ${quoteIdent(tmp)} RENAME TO ${quoteIdent(table)}`);
  return select;
}

/** A select list as SQL text over a reader call (for the shown CTE). */
export function selectFrom(select: readonly string[], from: string): string {
  return `SELECT ${select.join(',\n    ')}\n  FROM ${from}`;
}
