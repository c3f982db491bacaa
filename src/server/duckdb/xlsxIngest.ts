/**
 * XLSX/XLS -> one DuckDB table per non-empty sheet. The sheet worker reads and types the workbook
 * (sheetRead.ts) off the event loop, and the DuckDB appender writes the rows inside the ingest
 * transaction.
 */
import {
  DuckDBDateValue, DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection,
} from '@duckdb/node-api';
import type { IngestResult, TableOrigin } from '../engine';
import { replaceSource } from './catalog';
import type { DateCell, SheetColumnType, TypedValue } from './sheetGrid';
import type { ReadSheet } from './sheetRead';
import { readSheetsOffThread } from './sheetWorkerClient';
import { quoteIdent, quoteLiteral, tableNameFor } from './sqlText';

/** Rows appended between yields to the event loop, so HTTP requests keep being served. */
const ROWS_PER_YIELD = 2_000;

export interface SpreadsheetArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  signal: AbortSignal;
}

function appendTyped(app: DuckDBAppender, v: TypedValue, type: SheetColumnType): void {
  if (v === null) return app.appendNull();
  switch (type) {
    case 'BIGINT':
      return app.appendBigInt(BigInt(v as number));
    case 'DOUBLE':
      return app.appendDouble(v as number);
    case 'BOOLEAN':
      return app.appendBoolean(v as boolean);
    case 'DATE': {
      const d = v as DateCell;
      return app.appendDate(DuckDBDateValue.fromParts({ year: d.year, month: d.month, day: d.day }));
    }
    case 'TIMESTAMP': {
      const d = v as DateCell;
      return app.appendTimestamp(DuckDBTimestampValue.fromParts({
        date: { year: d.year, month: d.month, day: d.day },
        time: { hour: d.hour, min: d.minute, sec: d.second, micros: d.millis * 1000 },
      }));
    }
    case 'VARCHAR':
      return app.appendVarchar(v as string);
  }
}

/**
 * Creates `relation` (a quoted, possibly qualified table name) with the sheet's typed columns and
 * appends its rows. Shared with the Data Explorer (server/explore/), which reads a sheet the same way.
 */
export async function writeSheetTable(conn: DuckDBConnection, relation: string, s: ReadSheet, signal: AbortSignal): Promise<void> {
  const cols = s.table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
  await conn.run(`CREATE TABLE ${relation} (${cols})`);
  // The appender takes the table's name and, for an attached database, its catalog.
  const [catalog, table] = splitRelation(relation);
  const app = await conn.createAppender(table, null, catalog);
  try {
    const types = s.table.columns.map((c) => c.type);
    let r = 0;
    for (const row of s.table.rows) {
      for (let c = 0; c < types.length; c++) appendTyped(app, row[c] ?? null, types[c] ?? 'VARCHAR');
      app.endRow();
      if (++r % ROWS_PER_YIELD === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        signal.throwIfAborted();
      }
    }
    app.closeSync(); // flushes
  } catch (err) {
    // Discard buffered rows; the transaction rolls back anyway and the first error is what matters.
    try {
      app.clear();
      app.closeSync();
    } catch {
      // already closed or unusable
    }
    throw err;
  }
}

/** `"db"."t"` -> [db, t]; `"t"` -> [null, t] (names unquoted again). */
function splitRelation(relation: string): [string | null, string] {
  const parts = relation.match(/"(?:[^"]|"")*"/g)?.map((p) => p.slice(1, -1).replace(/""/g, '"')) ?? [relation];
  return parts.length === 2 ? [parts[0] ?? null, parts[1] ?? relation] : [null, parts[0] ?? relation];
}

/** Ingests every non-empty sheet of a workbook, one table each, replacing what the source had. */
export async function ingestSpreadsheet(args: SpreadsheetArgs): Promise<IngestResult> {
  const { conn, sourceId, filePath, fileName, signal } = args;
  const sheets = await readSheetsOffThread(filePath, fileName, signal);
  signal.throwIfAborted();

  return replaceSource(conn, sourceId, signal, async () => {
    const made: Array<{ table: string; sheet: string; origin?: TableOrigin }> = [];
    // DuckDB's excel extension reads .xlsx (not .xls); SheetJS's header and type clean-up differ a little.
    // An .xlsx.gz is shown as the workbook it holds (no reader of DuckDB's inflates one).
    const xlsx = /\.xlsx(\.gz)?$/i.test(fileName);
    for (const s of sheets) {
      const table = tableNameFor(sourceId, { index: s.index, name: s.name });
      await writeSheetTable(conn, quoteIdent(table), s, signal);
      made.push(xlsx
        ? { table, sheet: s.name, origin: { reader: 'read_xlsx', options: [`sheet = ${quoteLiteral(s.name)}`, 'header = true'], dateColumns: [], approximate: true } }
        : { table, sheet: s.name });
    }
    return { kind: 'tables', tables: made };
  });
}
