/**
 * Reading a workbook into typed grids: SheetJS (cached formula results only: formulas are never
 * evaluated) and {@link gridToTable}. Runs inside the sheet worker (sheetWorker.ts), so a workbook
 * that needs too much memory or time costs that worker, never the service's event loop or heap.
 */
import { readFile, stat } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { IngestError } from '../engine';
import { magicKind } from './fileSniff';
import { gridToTable, type CellValue, type DateCell } from './sheetGrid';
// Defined beside the worker's other limits, where the service reads it without loading SheetJS.
import { MAX_SPREADSHEET_BYTES } from './sheetWorkerClient';
import { inflatedSize, summarizeZip, ZipLimitError } from './zipGuard';
import { formatBytes } from '../../shared/byteSize';

/**
 * Bytes an XLSX may inflate to, counted as they come out (ZIP bombs declare small sizes). SheetJS
 * needs several times this in memory, which the worker's heap limit allows.
 */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** Cells across all sheets; about 1M rows x 20 columns. */
const MAX_CELLS = 20_000_000;
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (buf: Buffer, sig: number[]): boolean => sig.every((b, i) => buf[i] === b);

function isDateFormat(fmt: unknown): boolean {
  const ssf = XLSX.SSF as { is_date?: unknown };
  return typeof fmt === 'string' && typeof ssf.is_date === 'function' && Boolean((ssf.is_date as (f: string) => unknown)(fmt));
}

/**
 * Excel serial date -> calendar parts, without going through JS Date and the local time zone.
 * The 1900 system counts from 1899-12-31 and includes the fictitious 1900-02-29 (serial 60), which
 * is why serials from 61 on are counted from 1899-12-30.
 */
export function serialToDate(serial: number, date1904: boolean): DateCell {
  let days = Math.floor(serial);
  let ms = Math.round((serial - days) * 86_400_000);
  if (ms >= 86_400_000) {
    days += 1;
    ms -= 86_400_000;
  }
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : serial >= 61 ? Date.UTC(1899, 11, 30) : Date.UTC(1899, 11, 31);
  const d = new Date(epoch + days * 86_400_000);
  return {
    kind: 'date', year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: Math.floor(ms / 3_600_000), minute: Math.floor(ms / 60_000) % 60, second: Math.floor(ms / 1000) % 60,
    millis: ms % 1000,
  };
}

function cellValue(cell: XLSX.CellObject | undefined, date1904: boolean): CellValue {
  if (!cell) return null;
  const v = cell.v;
  switch (cell.t) {
    case 'n':
      if (typeof v !== 'number' || !Number.isFinite(v)) return null;
      if (isDateFormat(cell.z)) {
        const d = serialToDate(v, date1904);
        // A time-of-day format on a serial below 1 is a duration or clock time, not a date.
        return v < 1 ? `${String(d.hour).padStart(2, '0')}:${String(d.minute).padStart(2, '0')}:${String(d.second).padStart(2, '0')}` : d;
      }
      return v;
    case 'b':
      return typeof v === 'boolean' ? v : null;
    case 's': {
      const s = typeof v === 'string' ? v : v === undefined ? '' : String(v);
      return s.trim() === '' ? null : s;
    }
    case 'd':
      return v instanceof Date && !Number.isNaN(v.getTime())
        ? { kind: 'date', year: v.getUTCFullYear(), month: v.getUTCMonth() + 1, day: v.getUTCDate(), hour: v.getUTCHours(), minute: v.getUTCMinutes(), second: v.getUTCSeconds(), millis: v.getUTCMilliseconds() }
        : null;
    default:
      // 'e' (#DIV/0!, #N/A...) and 'z' (empty stub) carry no value.
      return null;
  }
}

function readWorkbook(buf: Buffer, fileName: string): XLSX.WorkBook {
  try {
    return XLSX.read(buf, {
      type: 'buffer', dense: true, cellNF: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false,
      cellStyles: false, bookVBA: false, sheetStubs: false, WTF: false,
    });
  } catch (err) {
    const m = err instanceof Error ? err.message : String(err);
    if (/password|encrypt/i.test(m)) throw new IngestError(`${fileName} is password-protected; remove the password in Excel and upload it again`);
    throw new IngestError(`could not read ${fileName}: the workbook is damaged or not an Excel file (${m.slice(0, 120)})`);
  }
}

/** Reads the file with the size and format checks that must happen before SheetJS sees it. */
async function loadWorkbook(filePath: string, fileName: string): Promise<XLSX.WorkBook> {
  const size = (await stat(filePath)).size;
  if (size === 0) throw new IngestError(`${fileName} is empty`);
  if (size > MAX_SPREADSHEET_BYTES) {
    throw new IngestError(`${fileName} is too large for spreadsheet import (${formatBytes(size)}, limit ${formatBytes(MAX_SPREADSHEET_BYTES)}); export it as CSV`);
  }
  const buf = await readFile(filePath);
  if (startsWith(buf, ZIP)) {
    const zip = summarizeZip(buf);
    if (!zip) throw new IngestError(`could not read ${fileName}: the workbook is damaged (its ZIP directory is unreadable)`);
    // Declared sizes first (cheap), then the bytes that really inflate.
    if (zip.uncompressedBytes > MAX_INFLATED_BYTES) {
      throw new IngestError(`${fileName} expands to more than ${formatBytes(MAX_INFLATED_BYTES)} when unpacked; export it as CSV`);
    }
    try {
      inflatedSize(buf, MAX_INFLATED_BYTES, (data, maxOutputLength) => inflateRawSync(data, { maxOutputLength }));
    } catch (err) {
      if (err instanceof ZipLimitError) throw new IngestError(`could not read ${fileName}: ${err.message}; export it as CSV`);
      throw err;
    }
  } else if (!startsWith(buf, OLE) && buf.subarray(0, 512).toString('latin1').trimStart()[0] !== '<') {
    // Only ZIP (xlsx), OLE2 (xls, encrypted xlsx) and HTML/XML spreadsheets are workbooks. Anything
    // else would be parsed by SheetJS as CSV text and "succeed" on garbage.
    const what = magicKind(buf);
    throw new IngestError(`${fileName} is not an Excel workbook${what ? `: it looks like ${what}` : ''}; save it as .xlsx (or as .csv) and upload it again`);
  }
  return readWorkbook(buf, fileName);
}

/** A sheet with data, typed: what the worker sends back. */
export interface ReadSheet {
  name: string;
  index: number;
  table: NonNullable<ReturnType<typeof gridToTable>>;
}

/** Every non-empty sheet of the workbook at `filePath`, typed; throws {@link IngestError} with a reason. */
export async function readSheets(filePath: string, fileName: string): Promise<ReadSheet[]> {
  const wb = await loadWorkbook(filePath, fileName);
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const sheets: ReadSheet[] = [];
  let cells = 0;
  wb.SheetNames.forEach((name, index) => {
    const data = wb.Sheets[name]?.['!data'];
    if (!Array.isArray(data)) return; // chart sheets and the like hold no cells
    const grid = data.map((row) => (Array.isArray(row) ? Array.from(row, (c) => cellValue(c, date1904)) : undefined));
    const table = gridToTable(grid);
    if (!table) return;
    cells += table.rows.length * table.columns.length;
    if (cells > MAX_CELLS) throw new IngestError(`${fileName} has more than ${MAX_CELLS.toLocaleString('en-US')} cells; export the sheets as CSV`);
    sheets.push({ name, index, table });
  });
  if (sheets.length === 0) throw new IngestError(`${fileName} has no data: every sheet is empty`);
  return sheets;
}
