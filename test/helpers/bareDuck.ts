/** Plain DuckDB, as a user would run it next to their files (for shown SQL and exports). */
import { DuckDBInstance } from '@duckdb/node-api';

/** Runs SQL in a fresh in-memory DuckDB whose relative paths resolve in `dir`. */
export async function bareDuck(dir: string, sql: string): Promise<unknown[][]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(`SET file_search_path = '${dir.replace(/'/g, "''")}'`);
    return (await conn.runAndReadAll(sql)).getRowsJS();
  } finally {
    conn.disconnectSync();
    db.closeSync();
  }
}
