/**
 * Turns a sheet's grid of cell values into a typed table: finds the header row (skipping title
 * rows above it), names the columns, drops fully empty rows and columns, and infers one DuckDB type
 * per column. Pure, so the heuristics are testable without a workbook.
 */
import { uniqueColumnNames } from './columnNames';

/** A calendar date (and time) read from a date-formatted cell; no time zone, as in Excel. */
export interface DateCell {
  kind: 'date';
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
}

export type CellValue = null | string | number | boolean | DateCell;

export type SheetColumnType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP' | 'VARCHAR';

/** Values of a row, already converted to their column's type (VARCHAR columns hold strings). */
export type TypedValue = null | string | number | boolean | DateCell;

export interface SheetTable {
  columns: Array<{ name: string; type: SheetColumnType }>;
  rows: TypedValue[][];
}

/** How many leading rows are searched for the header (title rows often sit above a table). */
const HEADER_SEARCH_ROWS = 10;

function isDate(v: CellValue): v is DateCell {
  return typeof v === 'object' && v !== null && v.kind === 'date';
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** ISO text of a date cell: `2024-03-15`, or `2024-03-15 10:30:00` when it has a time. */
export function dateText(d: DateCell): string {
  const date = `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
  if (d.hour === 0 && d.minute === 0 && d.second === 0 && d.millis === 0) return date;
  const ms = d.millis === 0 ? '' : `.${pad(d.millis, 3)}`;
  return `${date} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}${ms}`;
}

function cellText(v: Exclude<CellValue, null>): string {
  if (isDate(v)) return dateText(v);
  return String(v);
}

function nonNullCount(row: readonly CellValue[]): number {
  let n = 0;
  for (const v of row) if (v !== null && v !== undefined) n++;
  return n;
}

function inferType(values: readonly CellValue[]): SheetColumnType {
  let numbers = 0;
  let integers = 0;
  let booleans = 0;
  let dates = 0;
  let withTime = 0;
  let strings = 0;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') {
      numbers++;
      if (Number.isSafeInteger(v)) integers++;
    } else if (typeof v === 'boolean') booleans++;
    else if (typeof v === 'string') strings++;
    else {
      dates++;
      if (v.hour !== 0 || v.minute !== 0 || v.second !== 0 || v.millis !== 0) withTime++;
    }
  }
  const total = numbers + booleans + dates + strings;
  if (total === 0 || strings > 0) return 'VARCHAR';
  if (numbers === total) return integers === total ? 'BIGINT' : 'DOUBLE';
  if (booleans === total) return 'BOOLEAN';
  if (dates === total) return withTime > 0 ? 'TIMESTAMP' : 'DATE';
  return 'VARCHAR';
}

function convert(v: CellValue, type: SheetColumnType): TypedValue {
  if (v === null || v === undefined) return null;
  if (type === 'VARCHAR') return cellText(v);
  return v;
}

/**
 * Builds the table of one sheet, or undefined when the sheet has no values at all. A sheet with only
 * a header row gives a table with columns and zero rows.
 */
export function gridToTable(grid: ReadonlyArray<ReadonlyArray<CellValue> | undefined>): SheetTable | undefined {
  const rows: CellValue[][] = [];
  for (const r of grid) if (r && nonNullCount(r) > 0) rows.push([...r]);
  if (rows.length === 0) return undefined;

  // Header: the first row that is at least half as full as the fullest of the first rows; rows above
  // it are titles or notes, not data.
  const head = rows.slice(0, HEADER_SEARCH_ROWS);
  const fullest = Math.max(...head.map(nonNullCount));
  const headerIndex = head.findIndex((r) => nonNullCount(r) >= Math.max(1, Math.ceil(fullest / 2)));
  const candidate = rows[headerIndex] ?? [];
  // A header holds only text; a first row with numbers, dates or booleans is data.
  const hasHeader = candidate.every((v) => v === null || v === undefined || typeof v === 'string');
  const data = rows.slice(hasHeader ? headerIndex + 1 : headerIndex);

  let width = 0;
  for (const r of [candidate, ...data]) {
    for (let c = r.length - 1; c >= width; c--) {
      if (r[c] !== null && r[c] !== undefined) {
        width = c + 1;
        break;
      }
    }
  }
  const keep: number[] = [];
  for (let c = 0; c < width; c++) {
    const named = hasHeader && typeof candidate[c] === 'string' && (candidate[c] as string).trim() !== '';
    if (named || data.some((r) => r[c] !== null && r[c] !== undefined)) keep.push(c);
  }
  // Without a header, columns are named by their position in the sheet (column1 = column A).
  const names = hasHeader
    ? uniqueColumnNames(keep.map((c) => (typeof candidate[c] === 'string' ? (candidate[c] as string) : undefined)))
    : keep.map((c) => `column${c + 1}`);

  const columns = keep.map((c, i) => ({ name: names[i] ?? `column${c + 1}`, type: inferType(data.map((r) => r[c] ?? null)) }));
  const typedRows = data.map((r) => keep.map((c, i) => convert(r[c] ?? null, columns[i]?.type ?? 'VARCHAR')));
  return { columns, rows: typedRows };
}
