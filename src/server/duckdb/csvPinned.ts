/**
 * The reader of a CSV file read in place, with everything DuckDB sniffed written out: dialect,
 * header, column names and types (`auto_detect = false`). A view over `read_csv(..., auto_detect =
 * true)` sniffs the file again every time it is read, and every question reads it several times:
 * on a 10,000-column file each sniff took 3 to 13 s, and the schema index's hundred-odd statements
 * never let an in-place overview arrive. DuckDB writes this call itself (`sniff_csv`'s Prompt), from
 * the same options, so the view reads exactly what the sniffing view would.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from './sqlText';

interface SniffedColumn {
  name: string;
  type: string;
}

function sniffedColumns(raw: unknown): SniffedColumn[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: SniffedColumn[] = [];
  for (const c of raw) {
    if (typeof c !== 'object' || c === null) return undefined;
    const { name, type } = c as Record<string, unknown>;
    if (typeof name !== 'string' || typeof type !== 'string') return undefined;
    out.push({ name, type });
  }
  return out;
}

/**
 * `SELECT * FROM read_csv(<path>, auto_detect = false, ...)` for the file as DuckDB sniffs it with
 * `options`, or undefined when DuckDB's call cannot be used as it is (the caller then keeps the
 * sniffing reader). The call is checked before use: it must read `path` and nothing else, and bind
 * to exactly the columns and types the sniffer reported.
 */
export async function pinnedCsvSelect(conn: DuckDBConnection, path: string, options: readonly string[]): Promise<string | undefined> {
  let prompt: string;
  let expected: SniffedColumn[] | undefined;
  try {
    const r = await conn.runAndReadAll(`SELECT Prompt, to_json(Columns)::VARCHAR FROM sniff_csv(${[quoteLiteral(path), ...options].join(', ')})`);
    const row = r.getRows()[0];
    prompt = String(row?.[0] ?? '');
    expected = sniffedColumns(JSON.parse(String(row?.[1] ?? 'null')) as unknown);
  } catch {
    return undefined;
  }
  const head = `FROM read_csv(${quoteLiteral(path)}, auto_detect=false, `;
  const body = prompt.trim().replace(/;$/, '');
  if (expected === undefined || !body.startsWith(head) || !body.endsWith(')')) return undefined;
  // Names come from the file: one with a quote or backslash is not trusted to be written safely.
  if (expected.some((c) => /['\\]/.test(c.name) || /['\\]/.test(c.type))) return undefined;
  const select = `SELECT * ${body}`;
  try {
    const bound = await conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE ${select})`);
    const got = bound.getRows().map((r) => ({ name: String(r[0]), type: String(r[1]) }));
    const same = got.length === expected.length && got.every((c, i) => c.name === expected?.[i]?.name && c.type === expected?.[i]?.type);
    return same ? select : undefined;
  } catch {
    return undefined;
  }
}
