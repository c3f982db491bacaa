/**
 * Domain model shared by the client, the local service, the CLI and (later) the extension.
 *
 * These types are spelling-neutral: the wire spellings (v1 camelCase, v2 snake_case) live only in
 * the codecs under `src/api/codec*.ts`. Nothing here imports node, DOM or vscode.
 */

export const LANGUAGE_TYPES = [
  'AUTO', 'EN', 'ES', 'AR', 'PT', 'ID', 'JA', 'RU', 'HI', 'FR', 'DE', 'VI', 'TR', 'PL', 'IT', 'KO',
  'ZH-CN', 'ZH-TW',
] as const;
export type LanguageType = (typeof LANGUAGE_TYPES)[number];

export const JOB_MODES = ['AUTO', 'DATA_ANALYTICS'] as const;
export type JobMode = (typeof JOB_MODES)[number];

export const DATA_SOURCE_STATUSES = ['invalid', 'synching', 'synched'] as const;
/** `invalid` = awaiting processing (or failed, then `error` says why). */
export type DataSourceStatus = (typeof DATA_SOURCE_STATUSES)[number];

/** Extensions the hosted service accepts for data sources (lower case, with the dot). */
export const HOSTED_EXTENSIONS = [
  '.csv', '.tsv', '.md', '.mdx', '.json', '.txt', '.pdf', '.pptx', '.ppt', '.doc', '.docx', '.xls',
  '.xlsx',
] as const;

/**
 * Formats only the local service reads (DuckDB reads them natively); the hosted service refuses
 * them, so the extension offers to convert them to CSV on this machine before uploading there.
 */
export const LOCAL_ONLY_EXTENSIONS = [
  '.parquet', '.jsonl', '.ndjson', '.csv.gz', '.tsv.gz', '.json.gz', '.jsonl.gz', '.ndjson.gz',
  '.parquet.gz', '.xlsx.gz',
] as const;

/** Everything the extension, the CLI and the local service accept. */
export const SUPPORTED_EXTENSIONS = [...HOSTED_EXTENSIONS, ...LOCAL_ONLY_EXTENSIONS] as const;

/** Whether the hosted service refuses files with this extension (`fileExtension` spelling). */
export function isLocalOnlyExtension(ext: string): boolean {
  return (LOCAL_ONLY_EXTENSIONS as readonly string[]).includes(ext);
}

/** Files the local service reads where they are (no upload, no copy) when they lie in a workspace folder. */
export const IN_PLACE_EXTENSIONS = ['.csv', '.tsv', '.parquet', '.csv.gz', '.tsv.gz', '.parquet.gz'] as const;

export const DEFAULT_AGENT_ID = 'DATA_ANALYSIS_AGENT';
export const MAX_SESSIONS = 150;
export const MAX_TITLE_LENGTH = 128;
export const MAX_QUESTION_LENGTH = 6000;
export const MAX_TRACE_ID_LENGTH = 128;
export const MAX_DATASOURCES_PER_JOB = 1000;
export const DEFAULT_PAGE_SIZE = 10;

export interface Dataset {
  id: string;
  name: string;
  description: string;
}

export interface DataSource {
  id: string;
  datasetId: string;
  name: string;
  fileName: string;
  type: 'FILE';
  status: DataSourceStatus;
  userId?: string;
  /** Why processing failed; only on `invalid` sources that were tried (local service extra). */
  error?: string;
  /** Size in bytes, when known (v2 field; the local service always fills it). */
  size?: number;
  /** Local service extra: the file it reads in place (no copy), for sources added by path. */
  path?: string;
  /** Local service extra: an in-place file changed and is being read again (status `synching`). */
  rereading?: boolean;
  /** Local service extra: how far the read has got, while the source is `synching`. */
  progress?: ReadProgress;
  /** Local service extra: rows of a `synched` table source (all its tables together). */
  rows?: number;
  /**
   * Local service extra: bytes of the columnar copy a `synched` CSV read in place is answered from
   * (kept in the service's data folder while the file is unchanged); absent when there is none.
   */
  cacheBytes?: number;
}

/** How far a source's read has got: bytes of the file read so far, of its size. */
export interface ReadProgress {
  readBytes: number;
  totalBytes: number;
  /**
   * About how many rows have been read so far, when the service can tell: counted for Parquet,
   * estimated from the average line length for CSV, TSV and JSON Lines.
   */
  rowsRead?: number;
}

export interface Session {
  id: string;
  title: string;
  languageType: LanguageType;
  jobMode: JobMode;
  maxMessagesInContext: number;
  agentId: string;
  userId?: string;
}

export interface Page<T> {
  total: number;
  pageNumber: number;
  pageSize: number;
  records: T[];
}

/** Processing summary of a dataset (GET /datasets/{id}/status). */
export interface DatasetStatus {
  datasetId: string;
  total: number;
  synched: number;
  synching: number;
  invalid: number;
}

/** What a dataset holds (GET /datasets/{id}/overview). */
export interface DatasetOverview {
  dataset: Dataset;
  dataSourceCount: number;
  totalBytes: number;
  statuses: DatasetStatus;
  /** What the data is about, made from the data (v2 `summary`). */
  summary?: string;
  /** Questions worth asking first (v2 `exploration_questions`). */
  explorationQuestions?: string[];
  /** Words that say what the data covers (v2 `keywords`). */
  keywords?: string[];
}

export type Stage = 'Analyze' | 'Respond';
export type TaskStatus = 'running' | 'done' | 'error';

/** A TABLE or IMAGE file. `expiredAt` is absent when the service sent a bare URL (history). */
export interface FileRef {
  url: string;
  name: string;
  expiredAt?: string;
}

export interface SourceRef {
  id?: string;
  source: string;
  datasourceId: string;
  datasetId: string;
  fileType: string;
  externalId: string;
  pageNo?: number;
  content?: string;
}

/** Where a block sits in the answer. `groupName` is absent on QUESTIONS. */
export interface BlockPlace {
  groupId: string;
  groupName?: string;
  stage: Stage;
}

export type Block = BlockPlace &
  (
    | { type: 'MESSAGE'; content: string }
    | { type: 'CODE'; content: string }
    | { type: 'TABLE'; content: FileRef }
    | { type: 'IMAGE'; content: FileRef }
    | { type: 'SOURCES'; content: SourceRef[] }
    | { type: 'QUESTIONS'; content: string[] }
  );
export type BlockType = Block['type'];

/** A job answer as one response: the non-stream shape, and what a folded stream reduces to. */
export interface JobResult {
  jobId: string;
  blocks: Block[];
}

/** A question turn in history: the question's own blocks (normally one MESSAGE). */
export interface HistoryRecord {
  jobId: string;
  question: { blocks: Array<{ type: BlockType; content: unknown }> };
  /** `state` is set when the job did not finish: cancelled by its client, or failed. */
  answer: { blocks: Block[]; state?: 'cancelled' | 'error' };
}

export interface Task {
  id: string;
  name: string;
  status: TaskStatus;
  stage: Stage;
  parentId?: string;
  properties?: Record<string, unknown>;
}

/**
 * One decoded server-sent event. The codec turns wire frames into these; the fold turns these
 * into an {@link Answer}; the local service emits these and the codec writes them as frames.
 */
export type JobEvent =
  | { kind: 'JOB_ID'; jobId: string }
  | { kind: 'TITLE_GENERATION'; title: string }
  | { kind: 'TASK'; place: BlockPlace; task: Task }
  /** A MESSAGE fragment, or a whole CODE/TABLE/IMAGE/QUESTIONS/SOURCES block. */
  | { kind: 'BLOCK'; block: Block }
  | { kind: 'TRIGGER'; place: BlockPlace; name: string; arguments: Record<string, unknown> }
  | { kind: 'ERROR'; message: string; code?: number }
  /** END_MARK: `[DONE]` (ok) or `[ERROR]`. */
  | { kind: 'END'; ok: boolean }
  | { kind: 'UNKNOWN'; event: string; data: string };

export interface AnswerGroup {
  id: string;
  name: string;
  stage: Stage;
  /** From TASK events; absent for groups that never had a task (e.g. non-stream answers). */
  status?: TaskStatus;
  /** How many times a task of this group went to `error` (a later `running` is a retry). */
  errors?: number;
  blocks: Block[];
}

export type AnswerState = 'streaming' | 'done' | 'error' | 'cancelled';

/** The one shape the panel, history and tests render, whether the job streamed or not. */
export interface Answer {
  jobId: string;
  title?: string;
  state: AnswerState;
  groups: AnswerGroup[];
  triggers: Array<{ name: string; arguments: Record<string, unknown> }>;
  error?: { message: string; code?: number };
}

/** Per-job settings of v2 (`custom_options`). */
export interface JobCustomOptions {
  /** Replaces the system prompt (v2 `user_prompt`). */
  userPrompt?: string;
  /** Whether the answer cites its sources (v2 `with_citation`, default true). */
  withCitation?: boolean;
}

export interface JobRequest {
  sessionId: string;
  question: string;
  datasetId?: string;
  datasourceIdList?: string[];
  languageType?: LanguageType;
  /** v2 only: overrides the session's job mode for this job. */
  jobMode?: JobMode;
  /** v2 only. */
  customOptions?: JobCustomOptions;
  /** v2 sends the caller in the body (`user_id`). */
  userId?: string;
}

export interface NewSession {
  title?: string;
  languageType?: LanguageType;
  jobMode?: JobMode;
  maxMessagesInContext?: number;
  agentId?: string;
  userId?: string;
}

export interface NewDataSource {
  name?: string;
  fileName: string;
  url?: string;
  fileKey?: string;
  /**
   * Local service only: an absolute path of a file it reads where it is (no upload, no copy).
   * Accepted only under the folders the service was started with (`--read-root`).
   */
  path?: string;
}
