/**
 * Which ingestion path a file takes, decided by its extension (case-insensitive; `x.csv.gz` is a
 * gzip-compressed CSV), and the plain reasons given for the formats the local service does not
 * process yet.
 */
import { fileExtension } from '../../shared/fileNames';
import { IngestError } from '../engine';

export type FileKind = 'csv' | 'tsv' | 'json' | 'parquet' | 'spreadsheet' | 'text' | 'pdf' | 'docx' | 'pptx';

export interface FileFormat {
  kind: FileKind;
  /** Gzip-compressed (`.csv.gz`, `.jsonl.gz`, `.parquet.gz`, `.xlsx.gz`): see {@link GZIP_INNER}. */
  gzip: boolean;
}

const KINDS: Record<string, FileKind> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json',
  '.parquet': 'parquet',
  '.xlsx': 'spreadsheet',
  '.xls': 'spreadsheet',
  '.md': 'text',
  '.mdx': 'text',
  '.txt': 'text',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.pptx': 'pptx',
};

/** Legacy binary Office formats: no maintained JavaScript library reads them. */
const NOT_YET: Record<string, string> = {
  '.doc': 'legacy Word documents (.doc) cannot be processed; open the file in Word (or LibreOffice) and save it as .docx, then upload it again',
  '.ppt': 'legacy PowerPoint files (.ppt) cannot be processed; open the file in PowerPoint (or LibreOffice) and save it as .pptx, then upload it again',
};

/**
 * What may be gzip-compressed: DuckDB inflates delimited text and JSON itself (after gzipScan.ts);
 * Parquet and XLSX are inflated into the scratch folder first (gzipCopy.ts). Not `.xls`: nobody
 * asked, and what is offered is what is tested.
 */
const GZIP_INNER: ReadonlySet<string> = new Set(['.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.parquet', '.xlsx']);

const SUPPORTED = '.csv, .tsv, .json, .jsonl, .ndjson, .parquet, .xlsx, .xls, .md, .mdx, .txt, .pdf, .docx or .pptx (CSV, TSV, JSON, Parquet and XLSX also gzip-compressed, as .csv.gz, .parquet.gz or .xlsx.gz)';

/**
 * The name DuckDB reads a file by in shown SQL: DuckDB cannot read a `.parquet.gz` or `.xlsx.gz`
 * itself, so the SQL names the file `gunzip -k` makes of it (and says so, {@link needsGunzip}).
 */
export function duckDbFileName(fileName: string): string {
  return needsGunzip(fileName) ? fileName.replace(/\.gz$/i, '') : fileName;
}

/** Whether DuckDB reads the file only once it is decompressed (Parquet and workbooks in gzip). */
export function needsGunzip(fileName: string): boolean {
  return /\.(parquet|xlsx)\.gz$/i.test(fileName);
}

/** The ingestion path for a file name; throws {@link IngestError} for anything it cannot process. */
export function fileFormatOf(fileName: string): FileFormat {
  const ext = fileExtension(fileName);
  const gzip = ext.endsWith('.gz');
  const inner = gzip ? ext.slice(0, -3) : ext;
  const kind = KINDS[inner];
  if (kind !== undefined && (!gzip || GZIP_INNER.has(inner))) return { kind, gzip };
  const reason = NOT_YET[ext];
  if (reason !== undefined) throw new IngestError(reason);
  throw new IngestError(
    ext === ''
      ? `the file name has no extension, so its type is unknown; name it ${SUPPORTED}`
      : `${ext} files are not supported; use ${SUPPORTED}`,
  );
}

/**
 * A DuckDB error as a short user-facing reason: first line only, with the server's file path replaced
 * by the user's file name (paths of the data directory are nobody's business), length-capped.
 */
export function duckDbReason(err: unknown, filePath: string, fileName: string): string {
  const raw = err instanceof Error ? err.message : String(err);
  if (/not possible to automatically detect the CSV parsing dialect/i.test(raw)) {
    return 'its delimiter, quoting and columns could not be detected (is it really a delimited text file?)';
  }
  const long = /Maximum line size of (\d+) bytes exceeded/i.exec(raw);
  if (long) return `a line is longer than ${Math.round(Number(long[1]) / 1e6)} MB, which no table row needs (is one cell holding a whole document, or are the line ends missing?)`;
  let text = raw.split(/\r?\n/).find((l) => l.trim().length > 0) ?? raw;
  if (filePath.length > 0) text = text.split(filePath).join(fileName);
  text = text.replace(/^(Invalid Input|Invalid|Conversion|Parser|Binder|IO) Error:\s*/i, '').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
