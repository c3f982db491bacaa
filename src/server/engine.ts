/**
 * Seams inside the local service. The HTTP layer (routes, store, job runner) depends only on these
 * interfaces; the DuckDB-backed ingestion and the analysis engine implement them. The engine issue
 * swaps a new {@link AnalysisEngine} in without touching the HTTP layer.
 */
import type { TableStats } from './duckdb/scanStats';
import type { GlossaryEntry } from '../shared/glossary';
import type { Block, DataSource, FileRef, JobEvent, JobMode, LanguageType } from '../shared/domain';
import type { ModelEndpoint } from '../shared/localModel';

export interface ColumnInfo {
  name: string;
  /** DuckDB type name, e.g. BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP. */
  type: string;
}

/** A VARCHAR column the store turned into DATE/TIMESTAMP with one strptime format. */
export interface DateConversion {
  column: string;
  format: string;
  type: 'DATE' | 'TIMESTAMP';
}

/**
 * How plain DuckDB rebuilds a table from the user's own file, so the SQL shown with an answer runs
 * as-is next to that file: `reader(<file name>, ...options)`, then the same date conversions.
 */
export interface TableOrigin {
  reader: 'read_csv' | 'read_json_auto' | 'read_parquet' | 'read_xlsx';
  /** Named arguments after the file name, as SQL text (`null_padding = true`). */
  options: string[];
  /** The select list applied to the reader's columns (JSON flattened into columns), if any. */
  select?: string[];
  dateColumns: DateConversion[];
  /** True when the store did more than DuckDB's reader can (e.g. SheetJS header clean-up). */
  approximate?: boolean;
}

/** One DuckDB table made from a data source (a CSV gives one; an XLSX one per non-empty sheet). */
export interface IngestedTable {
  /** Quoted-safe DuckDB identifier, unique across the data directory. */
  table: string;
  /** Sheet name for spreadsheets. */
  sheet?: string;
  rowCount: number;
  columns: ColumnInfo[];
  /** Absent for tables ingested before origins were recorded. */
  origin?: TableOrigin;
  /**
   * A view over a file read in place: every query reads the file itself (or, for a CSV, the columnar
   * copy in {@link IngestedTable.cache} while the file is unchanged). Its `version`
   * (when it was read) tells caches a re-read of an edited file from the previous one.
   */
  inPlace?: { version: number };
  /** Files read in place: the overview's statistics, gathered in the scan that checked the file. */
  stats?: TableStats;
  /**
   * A CSV read in place and copied, in the read that checked it, into a compressed columnar file in
   * the data folder (inPlaceCache.ts): the table's view reads the copy while the file keeps the size
   * and modification time it had when copied, and the file itself again once it does not.
   */
  cache?: InPlaceCache;
}

/** The columnar copy of a file read in place (see {@link IngestedTable.cache}). */
export interface InPlaceCache {
  /** Absolute path of the Parquet copy, inside the data folder. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  /** The file copied, and its size and modification time just before it was read. */
  file: string;
  fileBytes: number;
  fileMtimeMs: number;
  /** The view's SELECT over the file itself (with its date conversions), put back when the copy is dropped. */
  fileSelect: string;
}

export type IngestResult =
  | { kind: 'tables'; tables: IngestedTable[] }
  | { kind: 'text'; chars: number };

export interface IngestOptions {
  /**
   * Read the file where it is: views over the file instead of tables holding a copy (CSV, TSV and
   * Parquet). The caller has checked that the path lies under the service's read roots.
   */
  inPlace?: boolean;
  /**
   * Called now and then while DuckDB reads the file, with the share of it read (0..1) and, when the
   * reader can tell, about how many rows it has got through (rowGauge.ts).
   */
  onProgress?: (fraction: number, rows?: number) => void;
}

/** Turns stored files into queryable tables or retrievable text. Implemented over DuckDB. */
export interface DataStore {
  /**
   * Processes the file of a data source. Throws {@link IngestError} with a user-facing reason when
   * the file cannot be processed; the caller marks the source `invalid` with that reason.
   */
  ingest(source: DataSource, filePath: string, signal: AbortSignal, opts?: IngestOptions): Promise<IngestResult>;
  /** What an earlier ingest produced, or undefined if the source was never (fully) ingested. */
  describe(sourceId: string): Promise<IngestResult | undefined>;
  /** The text of a text source (md, mdx, txt), for retrieval. */
  readText(sourceId: string): Promise<string | undefined>;
  /** Drops everything made from a source (on delete, or before a retry). */
  drop(sourceId: string): Promise<void>;
  /**
   * After an in-place read: writes the file's columnar copy in the background and swaps the source to
   * it (optional). Resolves with the source's entry recording the copy, or undefined when none was
   * kept; never rejects; stops when `signal` aborts, the source is dropped or read again.
   */
  writeCopy?(sourceId: string, o?: { signal?: AbortSignal; stamp?: { size: number; mtimeMs: number } }): Promise<IngestResult | undefined>;
  close(): Promise<void>;
}

export class IngestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IngestError';
  }
}

/** A previous turn of the session, for follow-up questions. */
export interface PriorTurn {
  question: string;
  blocks: Block[];
}

export interface AnswerContext {
  jobId: string;
  question: string;
  languageType: LanguageType;
  jobMode: JobMode;
  /** The selected, synched data sources with what ingestion made of them. */
  sources: Array<{ source: DataSource; ingest: IngestResult }>;
  /** Up to the session's `maxMessagesInContext` previous turns, oldest first. */
  history: PriorTurn[];
  /** `session`: the question selected no data, and `sources` are those of the session's last question about data. */
  dataFrom?: 'session';
  /** No data selected nor in the session: the datasets with ready files, to offer in the answer. */
  datasets?: ReadonlyArray<{ name: string; files: number }>;
  /** Sends an event to the client (and into the stored answer). TASK and BLOCK events only. */
  emit(event: JobEvent): void;
  /** Stores a file the answer links to (TABLE csv, IMAGE png/svg) and returns its expiring URL. */
  publishFile(name: string, contents: Uint8Array | string, contentType: string): Promise<FileRef>;
  signal: AbortSignal;
  /** The dataset's glossary: words its users gave a meaning ("heaviest" is `wt`). */
  glossary?: readonly GlossaryEntry[];
  /** The language model the asking client chose; it replaces the service's own (environment) one. */
  model?: ModelEndpoint;
  /** Keeps a word's meaning in the dataset's glossary (the local service persists it with the dataset). */
  define?(entry: GlossaryEntry): Promise<void>;
}

export interface AnalysisEngine {
  /**
   * Answers the question by emitting Analyze-stage TASK steps and Respond-stage blocks (MESSAGE,
   * CODE, TABLE, IMAGE, QUESTIONS, SOURCES). Throws only for unexpected failures; a question it
   * cannot answer is answered with a MESSAGE that says so.
   */
  answer(ctx: AnswerContext): Promise<void>;
  /**
   * Questions worth asking first about these sources (the dataset overview's
   * `exploration_questions`), each one the engine itself answers. Optional: engines without it
   * leave the list empty.
   */
  firstQuestions?(sources: ReadonlyArray<{ source: DataSource; ingest: IngestResult }>): Promise<string[]>;
  /**
   * A source was just read: work every question on it needs may start now, in the background
   * (optional). Never throws; the work stops when the source is dropped.
   */
  prepare?(source: { source: DataSource; ingest: IngestResult }): void;
}
