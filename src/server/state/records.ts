/**
 * What the service persists about each resource. These carry internal fields (timestamps, where
 * a source's file lives, retry counts) that never go on the wire; `to*` functions produce the
 * domain objects the codec encodes. Persisted JSON is read back defensively: a record that does
 * not have the expected shape is skipped rather than crashing the service at startup.
 */
import {
  DATA_SOURCE_STATUSES, DEFAULT_AGENT_ID, JOB_MODES, LANGUAGE_TYPES, type DataSource, type DataSourceStatus, type Dataset,
  type ReadProgress, type Session,
} from '../../shared/domain';
import { isObject } from '../../shared/json';
import { readGlossary, type GlossaryEntry } from '../../shared/glossary';
import type { IngestResult } from '../engine';

export interface DatasetRecord {
  id: string;
  name: string;
  description: string;
  createdAt: number;
  /** The dataset POST /datasources (without dataset) puts sources into. */
  isDefault?: boolean;
  /** Words its users gave a meaning ("heaviest" is `wt`); local only, never on the v1/v2 wire. */
  glossary?: GlossaryEntry[];
}

/** `path`: a file the local service reads where it is (in place, no copy), under its read roots. */
export type SourceOrigin = { kind: 'upload'; fileKey: string } | { kind: 'url'; url: string } | { kind: 'path'; path: string };

/** Size and modification time of an in-place file when it was last read, to notice edits. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface SourceRecord {
  id: string;
  datasetId: string;
  name: string;
  fileName: string;
  /** Lower-case extension with the dot, decided at create time. */
  ext: string;
  status: DataSourceStatus;
  userId?: string;
  error?: string;
  size?: number;
  origin: SourceOrigin;
  /** Path of the source's file relative to the data dir, once it is there (never for in-place sources). */
  file?: string;
  /** In-place sources: the file as it was when last read. */
  stamp?: FileStamp;
  /** Rows of its tables, once read (table sources). */
  rows?: number;
  /** Bytes of the columnar copy of a CSV read in place, while it has one (inPlaceCache.ts). */
  cacheBytes?: number;
  /** Processing attempts started; a source that keeps crashing the service is given up on. */
  attempts: number;
  createdAt: number;
}

/** A session as the contract describes it, plus what only the service keeps. */
export interface SessionRecord extends Session {
  /** True while the title is a placeholder, so the first job's generated title may replace it. */
  autoTitle: boolean;
  createdAt: number;
}

export interface UploadRecord {
  fileKey: string;
  /** Generated name of the stored file under uploads/. */
  storedName: string;
  /** Sanitised original file name. */
  fileName: string;
  size: number;
  userId?: string;
  createdAt: number;
}

export interface PersistedState {
  version: 1;
  datasets: DatasetRecord[];
  sources: SourceRecord[];
  sessions: SessionRecord[];
  uploads: UploadRecord[];
}

export function toDataset(r: DatasetRecord): Dataset {
  return { id: r.id, name: r.name, description: r.description };
}

/** The contract's view of a source; `progress` is how far a running read has got (not stored). */
export function toDataSource(r: SourceRecord, progress?: ReadProgress): DataSource {
  const d: DataSource = {
    id: r.id, datasetId: r.datasetId, name: r.name, fileName: r.fileName, type: 'FILE', status: r.status,
  };
  if (r.userId !== undefined) d.userId = r.userId;
  if (r.error !== undefined) d.error = r.error;
  if (r.size !== undefined) d.size = r.size;
  if (r.origin.kind === 'path') {
    d.path = r.origin.path;
    // Read before (it has a stamp) and reading now: the file changed.
    if (r.status === 'synching' && r.stamp !== undefined) d.rereading = true;
  }
  if (r.status === 'synching' && progress !== undefined) d.progress = { ...progress };
  if (r.status === 'synched' && r.rows !== undefined) d.rows = r.rows;
  if (r.status === 'synched' && r.cacheBytes !== undefined) d.cacheBytes = r.cacheBytes;
  return d;
}

export function toSession(r: SessionRecord): Session {
  const s: Session = {
    id: r.id, title: r.title, languageType: r.languageType, jobMode: r.jobMode,
    maxMessagesInContext: r.maxMessagesInContext, agentId: r.agentId,
  };
  if (r.userId !== undefined) s.userId = r.userId;
  return s;
}

// ---- defensive reading of persisted JSON ------------------------------------------------------

type Obj = Record<string, unknown>;
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
const num = (o: Obj, k: string): number | undefined =>
  typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : undefined;
function oneOf<T extends string>(v: unknown, values: readonly T[]): T | undefined {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined;
}

function readDataset(o: Obj): DatasetRecord | undefined {
  const id = str(o, 'id');
  if (id === undefined) return undefined;
  const r: DatasetRecord = { id, name: str(o, 'name') ?? '', description: str(o, 'description') ?? '', createdAt: num(o, 'createdAt') ?? 0 };
  if (o['isDefault'] === true) r.isDefault = true;
  const glossary = readGlossary(o['glossary']);
  if (glossary.length > 0) r.glossary = glossary;
  return r;
}

function readOrigin(v: unknown): SourceOrigin | undefined {
  if (!isObject(v)) return undefined;
  if (v['kind'] === 'upload' && typeof v['fileKey'] === 'string') return { kind: 'upload', fileKey: v['fileKey'] };
  if (v['kind'] === 'url' && typeof v['url'] === 'string') return { kind: 'url', url: v['url'] };
  if (v['kind'] === 'path' && typeof v['path'] === 'string') return { kind: 'path', path: v['path'] };
  return undefined;
}

function readSource(o: Obj): SourceRecord | undefined {
  const id = str(o, 'id');
  const datasetId = str(o, 'datasetId');
  const origin = readOrigin(o['origin']);
  if (id === undefined || datasetId === undefined || origin === undefined) return undefined;
  const fileName = str(o, 'fileName') ?? '';
  const r: SourceRecord = {
    id, datasetId, name: str(o, 'name') ?? fileName, fileName, ext: str(o, 'ext') ?? '',
    status: oneOf(o['status'], DATA_SOURCE_STATUSES) ?? 'invalid', origin, attempts: num(o, 'attempts') ?? 0,
    createdAt: num(o, 'createdAt') ?? 0,
  };
  const userId = str(o, 'userId');
  if (userId !== undefined) r.userId = userId;
  const error = str(o, 'error');
  if (error !== undefined) r.error = error;
  const size = num(o, 'size');
  if (size !== undefined) r.size = size;
  const file = str(o, 'file');
  if (file !== undefined) r.file = file;
  const stamp = isObject(o['stamp']) ? o['stamp'] : undefined;
  if (stamp !== undefined) {
    const size = num(stamp, 'size');
    const mtimeMs = num(stamp, 'mtimeMs');
    if (size !== undefined && mtimeMs !== undefined) r.stamp = { size, mtimeMs };
  }
  const rows = num(o, 'rows');
  if (rows !== undefined && Number.isSafeInteger(rows) && rows >= 0) r.rows = rows;
  const cacheBytes = num(o, 'cacheBytes');
  if (cacheBytes !== undefined && Number.isSafeInteger(cacheBytes) && cacheBytes > 0) r.cacheBytes = cacheBytes;
  return r;
}

function readSession(o: Obj): SessionRecord | undefined {
  const id = str(o, 'id');
  if (id === undefined) return undefined;
  const ctx = num(o, 'maxMessagesInContext');
  const r: SessionRecord = {
    id, title: str(o, 'title') ?? '', languageType: oneOf(o['languageType'], LANGUAGE_TYPES) ?? 'AUTO',
    jobMode: oneOf(o['jobMode'], JOB_MODES) ?? 'AUTO',
    maxMessagesInContext: ctx !== undefined && Number.isInteger(ctx) && ctx >= 0 && ctx <= 10 ? ctx : 10,
    agentId: str(o, 'agentId') ?? DEFAULT_AGENT_ID, autoTitle: o['autoTitle'] === true,
    createdAt: num(o, 'createdAt') ?? 0,
  };
  const userId = str(o, 'userId');
  if (userId !== undefined) r.userId = userId;
  return r;
}

function readUpload(o: Obj): UploadRecord | undefined {
  const fileKey = str(o, 'fileKey');
  const storedName = str(o, 'storedName');
  if (fileKey === undefined || storedName === undefined) return undefined;
  const r: UploadRecord = {
    fileKey, storedName, fileName: str(o, 'fileName') ?? 'file', size: num(o, 'size') ?? 0, createdAt: num(o, 'createdAt') ?? 0,
  };
  const userId = str(o, 'userId');
  if (userId !== undefined) r.userId = userId;
  return r;
}

function list<T>(v: unknown, read: (o: Obj) => T | undefined): T[] {
  if (!Array.isArray(v)) return [];
  const out: T[] = [];
  for (const item of v) {
    const r = isObject(item) ? read(item) : undefined;
    if (r !== undefined) out.push(r);
  }
  return out;
}

/** Reads a persisted state document; unknown or damaged records are dropped. */
export function readPersistedState(raw: unknown): PersistedState {
  const o = isObject(raw) ? raw : {};
  return {
    version: 1,
    datasets: list(o['datasets'], readDataset),
    sources: list(o['sources'], readSource),
    sessions: list(o['sessions'], readSession),
    uploads: list(o['uploads'], readUpload),
  };
}

/** Keeps the size of a source's columnar copy on its record (none: the field goes). */
export function recordCache(rec: SourceRecord, result: IngestResult): void {
  const bytes = result.kind === 'tables' ? result.tables.reduce((n, t) => n + (t.cache?.bytes ?? 0), 0) : 0;
  if (bytes > 0) rec.cacheBytes = bytes;
  else delete rec.cacheBytes;
}
