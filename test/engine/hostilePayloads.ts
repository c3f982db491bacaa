/**
 * Escape attempts shared by the hostile-model and hostile-question suites (issues 12 and 25): files
 * outside the data folder, the service's state inside it, another dataset's table, the catalog,
 * settings, ATTACH/COPY, table functions, CTE scoping tricks, comments and quoting. An escape is an
 * answer that shows one of SECRETS, each planted in one of those places.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EngineRig } from './engineHarness';

export const SECRETS = ['HUNTER2-OUTSIDE', 'STATE-INSIDE-DATA', 'OTHER-DATASET-ROW'];
export const CSV = 'region,revenue\nEurope,10\nAsia,20\n';

export function payloads(outside: string, state: string, other: string): string[] {
  const files = [outside, state];
  const out: string[] = [];
  for (const f of files) {
    out.push(
      `SELECT * FROM read_csv('${f}')`, `SELECT * FROM read_csv_auto('${f}')`, `SELECT * FROM '${f}'`, `SELECT * FROM "${f}"`,
      `SELECT content FROM read_text('${f}')`, `SELECT * FROM read_blob('${f}')`, `SELECT * FROM read_json_auto('${f}')`,
      `SELECT * FROM glob('${dirname(f)}/*')`, `SELECT * FROM sales, "${f}"`,
      `SELECT * FROM (WITH "${f}" AS (SELECT 1) SELECT * FROM sales), "${f}"`,
      `WITH "${f}" AS (SELECT * FROM "${f}") SELECT * FROM "${f}"`,
      `WITH a AS (SELECT * FROM "${f}"), "${f}" AS (SELECT 1) SELECT * FROM a`,
      `SELECT * FROM sales WHERE region IN (SELECT * FROM "${f}" UNION ALL (WITH "${f}" AS (SELECT 'x') SELECT * FROM "${f}"))`,
      `SELECT (SELECT string_agg(column0, ',') FROM read_csv('${f}', header = false)) AS leak FROM sales`,
      `SELECT * FROM sales UNION ALL SELECT *, 0 FROM '${f}'`,
      `SELECT * FROM query('SELECT * FROM read_csv(''${f}'')')`,
      `SELECT * FROM sales /* ; */ ; SELECT * FROM '${f}'`,
      `SELECT * FROM sales; COPY (SELECT 1) TO '${f}.out'`,
      `SELECT * FROM parquet_scan('${f}')`, `SELECT * FROM sniff_csv('${f}')`,
    );
  }
  out.push(
    `SELECT * FROM "${other}"`, `SELECT * FROM main."${other}"`, `SELECT * FROM sales UNION ALL SELECT * FROM "${other}"`,
    `WITH x AS (SELECT * FROM "${other}") SELECT * FROM x`, `SELECT * FROM tda_meta.catalog`, 'SELECT * FROM duckdb_tables()',
    'SELECT * FROM information_schema.tables', 'SELECT * FROM pg_catalog.pg_tables', 'SELECT getenv(\'HOME\') AS h',
    "SELECT current_setting('enable_external_access') AS s", 'SET enable_external_access = true', "ATTACH '/tmp/x.duckdb' AS x",
    'PRAGMA database_list', 'CALL pragma_version()', "INSTALL httpfs", 'LOAD httpfs', 'SELECT * FROM sales; DROP TABLE sales',
    `CREATE TABLE leak AS SELECT * FROM '${outside}'`, "SELECT * FROM read_csv('https://example.com/x.csv')",
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r', 'SELECT * FROM system.main.sales',
    `SELECT * FROM "${other.toUpperCase()}"`, "SELECT json_execute_serialized_sql('x')", 'EXPORT DATABASE \'/tmp/exp\'',
  );
  return out;
}

/**
 * Plants SECRETS[0] in a file beside the inputs (outside the data folder), SECRETS[1] in a state file
 * inside the store's data folder; SECRETS[2] is the row of the rig's `other.csv`, whose table is named.
 */
export async function plantSecrets(rig: EngineRig): Promise<{ outside: string; state: string; other: string }> {
  const outside = join(rig.dir, 'secret.csv');
  await writeFile(outside, `token\n${SECRETS[0] as string}\n`);
  const state = join(dirname(rig.dir), 'data', 'meta', 'state.csv');
  await mkdir(dirname(state), { recursive: true });
  await writeFile(state, `token\n${SECRETS[1] as string}\n`);
  const other = (rig.sources.get('other.csv')?.ingest as { tables: Array<{ table: string }> }).tables[0]?.table ?? '';
  return { outside, state, other };
}
