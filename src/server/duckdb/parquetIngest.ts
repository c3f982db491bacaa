/**
 * Parquet -> one DuckDB table via `read_parquet`, DuckDB's built-in reader: the file carries its
 * own column types (dates stay dates, numbers stay numbers), so nothing is sniffed. Nested columns
 * (structs, lists, maps) are flattened into plain columns the same way as JSON (`jsonShape.ts`).
 */
import { open, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IngestError, type IngestResult, type TableOrigin } from '../engine';
import { isGlobLike } from './ingestInput';
import { replaceSource } from './catalog';
import type { RowGauge } from './rowGauge';
import { duckDbReason } from './fileKinds';
import { checkParquetFooter } from './parquetFooter';
import { createView } from './csvIngest';
import { flattenJsonTable, jsonSelectList } from './jsonShape';
import { quoteIdent, quoteLiteral, tableNameFor } from './sqlText';

export interface ParquetArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  signal: AbortSignal;
  /** Define a view over the file instead of copying it into a table (files read in place). */
  inPlace?: boolean;
  /** Told how to count the rows read so far, for the read's progress. */
  rows?: RowGauge;
}

/** Parquet files start and end with these four bytes. */
const MAGIC = Buffer.from('PAR1');

/** Whether the file starts and ends with Parquet's magic bytes (a cut copy loses the end). */
async function hasParquetEnds(path: string): Promise<{ head: boolean; tail: boolean; size: number }> {
  const size = (await stat(path)).size;
  if (size < 12) return { head: false, tail: false, size };
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    await fh.read(tail, 0, 4, size - 4);
    return { head: head.equals(MAGIC), tail: tail.equals(MAGIC), size };
  } finally {
    await fh.close();
  }
}

/**
 * Throws an {@link IngestError} for a file that is not Parquet, is cut short, or whose footer
 * declares more than DuckDB can be let to read (see parquetFooter.ts). DuckDB's own messages for the
 * first two ("No magic bytes found at end of file") do not say what to do, and the last can take
 * tens of gigabytes before DuckDB fails at all.
 */
export async function checkParquetEnds(filePath: string, fileName: string): Promise<void> {
  const ends = await hasParquetEnds(filePath);
  if (!ends.head) throw new IngestError(`${fileName} is not a Parquet file (it does not start with Parquet's marker); export it as Parquet again, or use CSV`);
  if (!ends.tail) throw new IngestError(`${fileName} is cut short: a Parquet file ends with its table of contents, and this one is missing (was a download or copy interrupted?); get the complete file and add it again`);
  await checkParquetFooter(filePath, ends.size, fileName);
}

/** Ingests a Parquet file into the source's table, replacing what the source had. */
export async function ingestParquet(args: ParquetArgs): Promise<IngestResult> {
  const { conn, sourceId, filePath, fileName, signal } = args;
  await checkParquetEnds(filePath, fileName);
  args.rows?.countedByDuckDb();
  const table = tableNameFor(sourceId);
  try {
    return await replaceSource(conn, sourceId, signal, async () => {
      if (args.inPlace === true) {
        // read_parquet takes `*`, `?`, `[` and `{` as a pattern: such a path could read other files.
        if (isGlobLike(filePath)) throw new IngestError(`${fileName} cannot be read in place: its path holds one of * ? [ ] { }, which DuckDB reads as a pattern; rename it, or upload it instead`);
        const from = `read_parquet(${quoteLiteral(filePath)})`;
        let view = await createView(conn, table, `SELECT * FROM ${from}`);
        // Nested columns are flattened by defining the view again over the flat select list.
        const flat = await jsonSelectList(conn, table);
        const origin: TableOrigin = { reader: 'read_parquet', options: [], dateColumns: [] };
        if (flat !== undefined) {
          view = { body: `SELECT ${flat.join(', ')} FROM ${from}` };
          await conn.run(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS ${view.body}`);
          origin.select = flat;
        }
        return { kind: 'tables', tables: [{ table, origin, view }] };
      }
      await conn.run(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM read_parquet(${quoteLiteral(filePath)})`);
      const select = await flattenJsonTable(conn, table);
      const origin: TableOrigin = { reader: 'read_parquet', options: [], dateColumns: [] };
      if (select !== undefined) origin.select = select;
      return { kind: 'tables', tables: [{ table, origin }] };
    });
  } catch (err) {
    signal.throwIfAborted();
    throw new IngestError(`could not read ${fileName} as Parquet (is it damaged?): ${duckDbReason(err, filePath, fileName)}`);
  }
}
