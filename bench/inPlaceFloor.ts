/**
 * What bare DuckDB needs, on this machine, for each order of work a 1 GB CSV read in place could
 * take (for inPlaceBench.ts; issue 27). A question on the CSV is answered right only with the
 * question index, and the index takes dozens of scans: on the CSV itself about 10 s, on a columnar
 * copy well under one. Answering from the read's statistics alone stated wrong numbers (totals
 * rows, missing-value codes, place groups: the withdrawn commits 715f7b7..2982263). So a first
 * question waits for a copy, and a copy is one more full parse of the CSV:
 * - statistics first (as built), then the copy: the first question cannot come sooner after the
 *   overview than the copy plus the question on it;
 * - the copy first, the statistics from it: the overview cannot come sooner than the copy plus
 *   the statistics read from it (the copy's own RETURN_STATS give ranges and missing counts, not
 *   means or frequent values).
 * Same settings as the service's store (threads, memory limit, spill folder), one connection.
 */
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { readCsvCall } from '../src/server/duckdb/csvIngest';
import { gatherStats } from '../src/server/duckdb/scanStats';
import { memoryLimitSetting } from '../src/server/duckdb/sandbox';

export interface InPlaceFloor {
  /** The statistics scan of the CSV (what the overview is answered from), seconds. */
  statsOnCsv: number;
  /** COPY of the CSV to Parquet with ZSTD, as the service writes its copy, with RETURN_STATS. */
  copy: number;
  /** The statistics read from the copy. */
  statsOnCopy: number;
  /** "average revenue by region" on the copy. */
  askOnCopy: number;
}

export async function measureInPlaceFloor(file: string, scratch: string): Promise<InPlaceFloor> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(Math.min(availableParallelism(), 8)), memory_limit: memoryLimitSetting(undefined), temp_directory: join(scratch, 'spill'),
  });
  const conn = await instance.connect();
  const copy = join(scratch, 'floor.parquet');
  const timed = async (fn: () => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    await fn();
    return (performance.now() - start) / 1000;
  };
  try {
    await conn.run(`CREATE VIEW csv AS SELECT * FROM ${readCsvCall(file, false)}`);
    const columns = (await conn.runAndReadAll('DESCRIBE csv')).getRowsJS().map((r) => ({ name: String(r[0]), type: String(r[1]) }));
    const never = new AbortController().signal;
    const statsOnCsv = await timed(() => gatherStats(conn, 'csv', columns, never, false));
    const copyS = await timed(() => conn.runAndReadAll(`COPY (SELECT * FROM csv) TO '${copy}' (FORMAT parquet, COMPRESSION zstd, RETURN_STATS)`));
    await conn.run(`CREATE VIEW copy AS SELECT * FROM read_parquet('${copy}')`);
    const statsOnCopy = await timed(() => gatherStats(conn, 'copy', columns, never, true));
    const askOnCopy = await timed(() => conn.runAndReadAll('SELECT region, avg(revenue) AS avg_revenue FROM copy GROUP BY region ORDER BY avg_revenue DESC'));
    return { statsOnCsv, copy: copyS, statsOnCopy, askOnCopy };
  } finally {
    conn.disconnectSync();
    instance.closeSync();
    await rm(copy, { force: true });
  }
}
