/**
 * The SQL guard: generated or model-written SQL may only read the session's own tables. DuckDB's
 * own parser (`json_serialize_sql`) turns the statement into an AST; the guard then allows exactly
 * one SELECT whose table references are the session's tables or CTEs defined in the statement, with
 * no table functions (read_csv, glob, read_text, query...), no file-reading or settings functions,
 * and nothing but SELECT (json_serialize_sql refuses ATTACH, COPY, INSTALL, LOAD, PRAGMA, SET and
 * writes outright). Execution adds a statement timeout and a row cap on top.
 */
import { isObject } from '../../shared/json';

/** Runs `SELECT json_serialize_sql(?)` and returns the JSON text. */
export type SerializeSql = (sql: string) => Promise<string>;

export class SqlRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqlRejected';
  }
}

/** Table functions that only generate values (no I/O, no catalog access). */
const SAFE_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);
/** Scalar functions that read files, the environment, settings or the catalog, or change state. */
const DENIED_FUNCTIONS = /^(read_|glob$|getenv$|current_setting$|setseed$|nextval$|currval$|duckdb_|pragma_|sqlite_|parquet_|json_execute|json_deserialize|query$|query_table$|load$|install$|checkpoint$|force_checkpoint$|enable_|disable_|sql_auto_complete|which_secret$|current_schemas?$|current_database$|current_catalog$|version$|get_current_timestamp$|random$|uuid$|gen_random_uuid$|getvariable$|system$|shell$|import_|export_|copy_|write_|from_json_serialized)/i;
const ALLOWED_REF_TYPES = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'EMPTY', 'EMPTY_FROM', 'EXPRESSION_LIST', 'TABLE_FUNCTION', 'PIVOT']);
const ALLOWED_NODE_TYPES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'CTE_NODE']);

/** Lower-cases ASCII letters only, as DuckDB's identifier comparison does; everything else stays. */
export function duckDbFold(name: string): string {
  return name.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * A name DuckDB could turn into a file read when no table or CTE has it: replacement scans need a
 * file extension (`x.csv`, `x.parquet.gz`) and a path may name a folder; without a dot or separator
 * DuckDB only looks the name up in its catalog.
 */
function fileLike(name: string): boolean {
  return /[./\\]/.test(name);
}

interface Walk {
  /** Tables read by name that no CTE in scope defines: they must be the session's tables. */
  tables: Set<string>;
  problems: string[];
}

/**
 * Visits `node` with `scope`, the CTE names visible at that point. A CTE is visible in the body of
 * the query that defines it and in the CTEs defined after it, never in its own definition or outside
 * its query: `WITH x AS (...)` inside a subquery must not make `FROM x` elsewhere read a file or
 * table called `x`, and `WITH "/a.csv" AS (FROM "/a.csv")` reads the file in its definition.
 */
function visit(node: unknown, w: Walk, scope: ReadonlySet<string>): void {
  if (Array.isArray(node)) {
    for (const x of node) visit(x, w, scope);
    return;
  }
  if (!isObject(node)) return;
  const type = typeof node['type'] === 'string' ? node['type'] : undefined;
  // CTE definitions: { key: name, value: { query } } inside cte_map.map, in the order written.
  const cteMap = node['cte_map'];
  let inner = scope;
  if (isObject(cteMap) && Array.isArray(cteMap['map'])) {
    const seen = new Set(scope);
    for (const entry of cteMap['map']) {
      if (!isObject(entry)) continue;
      visit(entry['value'], w, new Set(seen));
      if (typeof entry['key'] === 'string') seen.add(duckDbFold(entry['key']));
    }
    inner = seen;
  }
  if (type !== undefined && /_NODE$/.test(type) && !ALLOWED_NODE_TYPES.has(type)) w.problems.push(`query construct ${type} is not allowed`);
  if (type === 'RECURSIVE_CTE_NODE') w.problems.push('recursive CTEs are not allowed');
  if (type === 'BASE_TABLE') {
    const schema = String(node['schema_name'] ?? '');
    const catalog = String(node['catalog_name'] ?? '');
    const name = String(node['table_name'] ?? '');
    if (catalog !== '' || (schema !== '' && duckDbFold(schema) !== 'main')) w.problems.push(`table ${[catalog, schema, name].filter((s) => s !== '').join('.')} is outside the session's data`);
    if (fileLike(name)) w.problems.push(`table ${name} is not one of the session's tables (files are read only through them)`);
    else if (schema !== '' || !inner.has(duckDbFold(name))) w.tables.add(duckDbFold(name));
  } else if (type === 'TABLE_FUNCTION') {
    const fn = isObject(node['function']) ? String(node['function']['function_name'] ?? '') : '';
    if (!SAFE_TABLE_FUNCTIONS.has(duckDbFold(fn))) w.problems.push(`table function ${fn || '(unknown)'} is not allowed`);
  } else if (type !== undefined && isTableRef(node) && !ALLOWED_REF_TYPES.has(type)) {
    w.problems.push(`${type} is not allowed`);
  }
  if (node['class'] === 'FUNCTION' || node['class'] === 'AGGREGATE' || node['class'] === 'WINDOW') {
    const fn = String(node['function_name'] ?? '');
    const fnSchema = String(node['schema'] ?? '');
    const fnCatalog = String(node['catalog'] ?? '');
    if (DENIED_FUNCTIONS.test(fn)) w.problems.push(`function ${fn} is not allowed`);
    if ((fnSchema !== '' && fnSchema !== 'main') || fnCatalog !== '') w.problems.push(`function ${[fnCatalog, fnSchema, fn].filter((s) => s !== '').join('.')} is not allowed`);
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'cte_map' && typeof v === 'object' && v !== null) visit(v, w, inner);
}

/** Table references carry `sample` and `alias` next to their type; expressions carry `class`. */
function isTableRef(node: Record<string, unknown>): boolean {
  return 'sample' in node && 'alias' in node && !('class' in node) && !('select_list' in node);
}

/**
 * Checks `sql` and resolves when it is one SELECT reading only `allowedTables` (ASCII case-insensitive)
 * and the CTEs it defines itself; rejects with {@link SqlRejected} saying why otherwise.
 */
export async function guardSql(sql: string, allowedTables: Iterable<string>, serialize: SerializeSql): Promise<void> {
  if (sql.length > 100_000) throw new SqlRejected('the statement is too long');
  let json: string;
  try {
    json = await serialize(sql);
  } catch (err) {
    throw new SqlRejected(`the statement could not be parsed: ${firstLine(err)}`);
  }
  let ast: unknown;
  try {
    ast = JSON.parse(json);
  } catch {
    throw new SqlRejected('the parser returned something unreadable');
  }
  if (!isObject(ast)) throw new SqlRejected('the parser returned something unreadable');
  if (ast['error'] === true) {
    const msg = String(ast['error_message'] ?? 'not a SELECT statement');
    throw new SqlRejected(/only SELECT/i.test(msg) ? 'only a single SELECT statement is allowed' : `the statement was refused: ${msg.split('\n')[0]}`);
  }
  const statements = ast['statements'];
  if (!Array.isArray(statements) || statements.length !== 1) throw new SqlRejected('exactly one SELECT statement is allowed');
  const w: Walk = { tables: new Set(), problems: [] };
  visit(statements[0], w, new Set());
  const allowed = new Set([...allowedTables].map(duckDbFold));
  for (const t of w.tables) if (!allowed.has(t)) w.problems.push(`table ${t} is not one of the session's tables`);
  if (w.problems.length > 0) throw new SqlRejected([...new Set(w.problems)].slice(0, 5).join('; '));
}

function firstLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return (m.split('\n')[0] ?? m).slice(0, 200);
}
