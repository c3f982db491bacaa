/**
 * The table CTEs that start every statement. Executed, `sales AS (SELECT * FROM "src_…")` reads
 * the ingested table; shown, `sales AS (SELECT * FROM read_csv('sales.csv', …))` reads the user's own
 * file with the options and date conversions ingestion used, so the shown SQL gives the same rows.
 */
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { dateConversionExpr } from '../duckdb/dateColumns';
import { duckDbFileName, needsGunzip } from '../duckdb/fileKinds';
import { selectFrom } from '../duckdb/jsonShape';
import { fileExtension } from '../../shared/fileNames';
import type { TableOrigin } from '../engine';
import { sqlName } from './schemaIndex';
import type { TableMeta } from './types';
import { longSelect } from './wideTables';

/** The select list of a table CTE: every column, or `only` these. */
const selectList = (only: readonly string[] | undefined): string => (only === undefined ? '*' : only.map(quoteIdent).join(', '));

/** CTE over the ingested table (what runs inside the service), of `only` these columns when given. */
export function executedCte(t: TableMeta, only?: readonly string[]): string {
  if (t.long !== undefined) return `${sqlName(t.alias)} AS (SELECT ${selectList(only)} FROM (\n    ${longSelect(quoteIdent(t.table), t.long)}\n  ))`;
  return `${sqlName(t.alias)} AS (SELECT ${selectList(only)} FROM ${quoteIdent(t.table)})`;
}

/** The origin recorded at ingestion, or the reader the file's extension implies. */
export function originOf(t: TableMeta): TableOrigin {
  if (t.ingested.origin !== undefined) return t.ingested.origin;
  const ext = fileExtension(t.source.fileName);
  if (ext === '.parquet') return { reader: 'read_parquet', options: [], dateColumns: [], approximate: true };
  if (/^\.(json|jsonl|ndjson)(\.gz)?$/.test(ext)) return { reader: 'read_json_auto', options: [], dateColumns: [], approximate: true };
  if (ext === '.xlsx' || ext === '.xls') {
    return { reader: 'read_xlsx', options: t.ingested.sheet !== undefined ? [`sheet = ${quoteLiteral(t.ingested.sheet)}`, 'header = true'] : ['header = true'], dateColumns: [], approximate: true };
  }
  const options = ['auto_detect = true', 'null_padding = true'];
  if (ext === '.tsv' || ext === '.tsv.gz') options.push(`delim = '\\t'`);
  return { reader: 'read_csv', options, dateColumns: [], approximate: true };
}

/** CTE over the user's file (what the answer shows), of `only` these columns when given. */
export function shownCte(t: TableMeta, only?: readonly string[]): string {
  const { long, ...asFile } = t;
  if (long !== undefined) {
    // The file as it is (wide), then its year columns read as rows.
    const wide = shownCte(asFile).replace(/^[^\n]*\n/, '').replace(/\n\)$/, '').replace(/\n/g, '\n  ');
    return `${sqlName(t.alias)} AS (\n  SELECT ${selectList(only)} FROM (\n    ${longSelect(`(\n  ${wide}\n    )`, long)}\n  )\n)`;
  }
  const o = originOf(t);
  const reader = `${o.reader}(${[quoteLiteral(duckDbFileName(t.source.fileName)), ...o.options].join(', ')})`;
  // A flattened JSON file: its select list first, then (as for any table) the date conversions.
  const call = o.select !== undefined ? `(\n  ${selectFrom(o.select, reader)}\n  )` : reader;
  if (o.dateColumns.length === 0) return `${sqlName(t.alias)} AS (\n  SELECT ${selectList(only)} FROM ${call}\n)`;
  if (only !== undefined) {
    // Dates converted first, as for the whole table; then only the columns the statement reads.
    const whole = shownCte(t).replace(/^[^\n]*\n/, '').replace(/\n\)$/, '').replace(/\n/g, '\n  ');
    return `${sqlName(t.alias)} AS (\n  SELECT ${selectList(only)} FROM (\n  ${whole}\n  )\n)`;
  }
  const replaced = o.dateColumns
    .map((d) => `    ${dateConversionExpr(quoteIdent(d.column), d.format, d.type)} AS ${quoteIdent(d.column)}`)
    .join(',\n');
  return `${sqlName(t.alias)} AS (\n  SELECT * REPLACE (\n${replaced}\n  )\n  FROM ${call}\n)`;
}

/** Header comments of a shown SQL block: where to run it, and any caveat about the reader. */
export function shownPreamble(tables: readonly TableMeta[]): string[] {
  const files = [...new Set(tables.map((t) => t.source.fileName))];
  const lines = [`Runs in DuckDB from the folder that holds ${files.join(' and ')}`];
  for (const f of files.filter(needsGunzip)) lines.push(`DuckDB reads ${f} decompressed: run gunzip -k ${f} there first`);
  for (const t of tables) {
    const o = originOf(t);
    if (o.reader === 'read_xlsx') lines.push(`${t.label}: read_xlsx needs DuckDB's excel extension (INSTALL excel; LOAD excel;); .xls files need saving as .xlsx or .csv first`);
    else if (o.approximate) lines.push(`${t.label} was cleaned up on import (encoding or layout), so reading the file directly may differ slightly`);
  }
  return lines;
}
