/**
 * The contract's v1 spelling (camelCase bodies, `/v1/team/...` paths) with the real service's query
 * names from service-notes: `pageNumber`, `pageSize`, `name` (datasets), `title` (sessions),
 * `status` (data sources). Decoders tolerate the known quirks: `pending` status, numeric ids,
 * snake_case fields from v2-era payloads.
 */
import { decodeBlocks, decodeEvent, encodeBlock, encodeEvent } from './blockCodecV1';
import type { ListQuery, WireCodec } from './codec';
import {
  DEFAULT_AGENT_ID, JOB_MODES, LANGUAGE_TYPES, type DataSource, type DataSourceStatus, type Dataset,
  type DatasetOverview, type DatasetStatus, type HistoryRecord, type JobMode, type LanguageType, type Page,
  type ReadProgress, type Session,
} from './domain';
import {
  asArray, asObject, pick, readInteger, readOptionalInteger, readOptionalString, readString, WireFormatError,
  type JsonObject,
} from './json';

const enc = encodeURIComponent;

export function decodeStatus(value: unknown): DataSourceStatus {
  // `pending` appears in the contract's create example; it means awaiting processing.
  if (value === 'synched' || value === 'synching') return value;
  return 'invalid';
}

export function decodeLanguage(value: unknown): LanguageType {
  return typeof value === 'string' && (LANGUAGE_TYPES as readonly string[]).includes(value.toUpperCase())
    ? (value.toUpperCase() as LanguageType)
    : 'AUTO';
}

export function decodeJobMode(value: unknown): JobMode {
  return typeof value === 'string' && (JOB_MODES as readonly string[]).includes(value) ? (value as JobMode) : 'AUTO';
}

export function str(o: Record<string, unknown>, field: string, ...keys: string[]): string {
  const v = pick(o, ...keys);
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw new WireFormatError(field, 'a string');
}

export function optStr(o: Record<string, unknown>, ...keys: string[]): string | undefined {
  const v = pick(o, ...keys);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function decodeDataset(raw: unknown): Dataset {
  const o = asObject(raw, 'dataset');
  return { id: str(o, 'dataset.id', 'id'), name: optStr(o, 'name') ?? '', description: optStr(o, 'description') ?? '' };
}

function decodeDataSource(raw: unknown): DataSource {
  const o = asObject(raw, 'datasource');
  const fileName = optStr(o, 'fileName', 'file_name') ?? optStr(o, 'name') ?? '';
  const ds: DataSource = {
    id: str(o, 'datasource.id', 'id'),
    datasetId: optStr(o, 'datasetId', 'dataset_id') ?? '',
    name: optStr(o, 'name') ?? fileName,
    fileName,
    type: 'FILE',
    status: decodeStatus(o['status']),
  };
  const userId = optStr(o, 'userId', 'user_id');
  if (userId !== undefined) ds.userId = userId;
  const error = optStr(o, 'error');
  if (error !== undefined) ds.error = error;
  const size = pick(o, 'size');
  if (typeof size === 'number' && Number.isFinite(size)) ds.size = size;
  const path = optStr(o, 'path');
  if (path !== undefined) ds.path = path;
  if (o['rereading'] === true) ds.rereading = true;
  const progress = decodeProgress(o['progress']);
  if (progress !== undefined) ds.progress = progress;
  const rows = pick(o, 'rows');
  if (typeof rows === 'number' && Number.isSafeInteger(rows) && rows >= 0) ds.rows = rows;
  const cacheBytes = pick(o, 'cacheBytes', 'cache_bytes');
  if (typeof cacheBytes === 'number' && Number.isSafeInteger(cacheBytes) && cacheBytes > 0) ds.cacheBytes = cacheBytes;
  return ds;
}

/** A read's progress, or undefined when absent or not two sane byte counts. */
export function decodeProgress(raw: unknown): ReadProgress | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  const read = pick(o, 'readBytes', 'read_bytes');
  const total = pick(o, 'totalBytes', 'total_bytes');
  if (typeof read !== 'number' || typeof total !== 'number' || !Number.isFinite(read) || !Number.isFinite(total)) return undefined;
  if (read < 0 || total <= 0) return undefined;
  const progress: ReadProgress = { readBytes: Math.min(read, total), totalBytes: total };
  const rows = pick(o, 'rowsRead', 'rows_read');
  if (typeof rows === 'number' && Number.isSafeInteger(rows) && rows >= 0) progress.rowsRead = rows;
  return progress;
}

function decodeSession(raw: unknown): Session {
  const o = asObject(raw, 'session');
  const s: Session = {
    id: str(o, 'session.id', 'id'),
    title: optStr(o, 'title', 'name') ?? '',
    languageType: decodeLanguage(pick(o, 'languageType', 'output_language')),
    jobMode: decodeJobMode(pick(o, 'jobMode', 'job_mode')),
    maxMessagesInContext: readOptionalInteger(o, 'maxMessagesInContext') ?? 10,
    agentId: optStr(o, 'agentId', 'agent_id') ?? DEFAULT_AGENT_ID,
  };
  const userId = optStr(o, 'userId', 'user_id');
  if (userId !== undefined) s.userId = userId;
  return s;
}

function decodePage<T>(raw: unknown, item: (r: unknown, field: string) => T): Page<T> {
  const o = asObject(raw, 'page');
  const records = asArray(pick(o, 'records') ?? [], 'page.records');
  return {
    total: readInteger({ t: pick(o, 'total', 'total_items') ?? records.length }, 't', 'page.total'),
    pageNumber: readInteger({ p: pick(o, 'pageNumber', 'page_number') ?? 1 }, 'p', 'page.pageNumber'),
    pageSize: readInteger({ p: pick(o, 'pageSize', 'page_size') ?? records.length }, 'p', 'page.pageSize'),
    records: records.map((r, i) => item(r, `page.records[${i}]`)),
  };
}

function decodeHistoryRecord(raw: unknown): HistoryRecord {
  const o = asObject(raw, 'history');
  const q = asObject(pick(o, 'question') ?? { blocks: [] }, 'history.question');
  const a = asObject(pick(o, 'answer') ?? { blocks: [] }, 'history.answer');
  const qBlocks = asArray(q['blocks'] ?? [], 'history.question.blocks').map((b, i) => {
    const bo = asObject(b, `history.question.blocks[${i}]`);
    return { type: readString(bo, 'type', `history.question.blocks[${i}].type`) as 'MESSAGE', content: bo['content'] };
  });
  const answer: HistoryRecord['answer'] = { blocks: decodeBlocks(a['blocks'] ?? [], 'history.answer.blocks') };
  // The local service marks unfinished jobs; the hosted service sends no status (finished).
  const status = typeof a['status'] === 'string' ? a['status'].toUpperCase() : undefined;
  if (status === 'CANCELLED') answer.state = 'cancelled';
  else if (status === 'ERROR') answer.state = 'error';
  return { jobId: str(o, 'history.jobId', 'jobId', 'job_id'), question: { blocks: qBlocks }, answer };
}

function encodeDataSource(d: DataSource): JsonObject {
  const o: JsonObject = {
    id: d.id, datasetId: d.datasetId, name: d.name, fileName: d.fileName, type: d.type, status: d.status,
  };
  if (d.userId !== undefined) o['userId'] = d.userId;
  if (d.error !== undefined) o['error'] = d.error;
  if (d.size !== undefined) o['size'] = d.size;
  if (d.path !== undefined) o['path'] = d.path;
  if (d.rereading === true) o['rereading'] = true;
  if (d.progress !== undefined) o['progress'] = { readBytes: d.progress.readBytes, totalBytes: d.progress.totalBytes, ...(d.progress.rowsRead !== undefined ? { rowsRead: d.progress.rowsRead } : {}) };
  if (d.rows !== undefined) o['rows'] = d.rows;
  if (d.cacheBytes !== undefined) o['cacheBytes'] = d.cacheBytes;
  return o;
}

function encodeDatasetStatus(s: DatasetStatus): JsonObject {
  return { datasetId: s.datasetId, total: s.total, synched: s.synched, synching: s.synching, invalid: s.invalid };
}

function decodeDatasetStatus(raw: unknown, datasetId: string): DatasetStatus {
  const o = asObject(raw, 'status');
  const n = (k: string): number => readOptionalInteger(o, k, `status.${k}`) ?? 0;
  return { datasetId: optStr(o, 'datasetId', 'dataset_id') ?? datasetId, total: n('total'), synched: n('synched'), synching: n('synching'), invalid: n('invalid') };
}

function strings(v: unknown): string[] | undefined {
  if (typeof v === 'string') return v.split(',').map((x) => x.trim()).filter((x) => x !== '');
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/**
 * The made-from-the-data part of an overview: `summary`, the questions list (named per version)
 * and `keywords`, which the OpenAPI types as a string but its example sends as an array.
 */
export function decodeDigest(o: Record<string, unknown>, questionsKey: string, field: string): Pick<DatasetOverview, 'summary' | 'explorationQuestions' | 'keywords'> {
  const out: Pick<DatasetOverview, 'summary' | 'explorationQuestions' | 'keywords'> = {};
  const summary = readOptionalString(o, 'summary', `${field}.summary`);
  if (summary !== undefined) out.summary = summary;
  const questions = strings(o[questionsKey]);
  if (questions !== undefined) out.explorationQuestions = questions;
  const keywords = strings(o['keywords']);
  if (keywords !== undefined) out.keywords = keywords;
  return out;
}

/** Header names of the v1 API, read by the service and sent by the client. */
export const V1_HEADERS = {
  apiKey: 'x-pd-api-key',
  externalTraceId: 'x-pd-external-trace-id',
  traceId: 'x-pd-trace-id',
  agentId: 'x-pd-api-agent-id',
} as const;

export const v1Codec: WireCodec = {
  version: 'v1',
  paths: {
    datasets: '/v1/team/datasets',
    dataset: (id) => `/v1/team/datasets/${enc(id)}`,
    datasetStatus: (id) => `/v1/team/datasets/${enc(id)}/status`,
    datasetOverview: (id) => `/v1/team/datasets/${enc(id)}/overview`,
    datasources: (ds) => `/v1/team/datasets/${enc(ds)}/datasources`,
    datasource: (ds, id) => `/v1/team/datasets/${enc(ds)}/datasources/${enc(id)}`,
    presign: (ds, id) => `/v1/team/datasets/${enc(ds)}/datasources/${enc(id)}/presign`,
    datasourcesWithoutDataset: '/v1/team/datasources',
    upload: '/v1/team/file/upload-datasource',
    sessions: '/v1/team/sessions',
    session: (id) => `/v1/team/sessions/${enc(id)}`,
    history: (id) => `/v1/team/sessions/${enc(id)}/history`,
    jobs: '/v1/team/jobs',
  },
  userIdParam: 'userId',
  uploadFileField: 'file',
  listQuery(resource, q: ListQuery) {
    const out: Record<string, string> = {};
    if (q.pageNumber !== undefined) out['pageNumber'] = String(q.pageNumber);
    if (q.pageSize !== undefined) out['pageSize'] = String(q.pageSize);
    if (q.keyword !== undefined && q.keyword !== '') {
      if (resource === 'datasets') out['name'] = q.keyword;
      if (resource === 'sessions') out['title'] = q.keyword;
    }
    if (resource === 'datasources' && q.statuses && q.statuses.length > 0) out['status'] = q.statuses.join(',');
    if (q.userId !== undefined) out['userId'] = q.userId;
    return out;
  },
  encodeDatasetBody: (d) => ({ name: d.name, description: d.description }),
  decodeDataset,
  decodeCreated: (raw) => ({ id: str(asObject(raw, 'data'), 'data.id', 'id') }),
  decodeDataSource,
  encodeDataSourceBody(d, userId) {
    const o: JsonObject = { fileName: d.fileName, type: 'FILE' };
    if (d.name !== undefined) o['name'] = d.name;
    if (d.url !== undefined) o['url'] = d.url;
    if (d.path !== undefined) o['path'] = d.path;
    if (d.fileKey !== undefined) o['fileKey'] = d.fileKey;
    if (userId !== undefined) o['userId'] = userId;
    return o;
  },
  decodeSession,
  encodeSessionBody(s) {
    const o: JsonObject = {};
    if (s.title !== undefined) o['title'] = s.title;
    if (s.languageType !== undefined) o['languageType'] = s.languageType;
    if (s.jobMode !== undefined) o['jobMode'] = s.jobMode;
    if (s.maxMessagesInContext !== undefined) o['maxMessagesInContext'] = s.maxMessagesInContext;
    o['agentId'] = s.agentId ?? DEFAULT_AGENT_ID;
    if (s.userId !== undefined) o['userId'] = s.userId;
    return o;
  },
  encodeSessionPatch(s) {
    const o: JsonObject = {};
    if (s.title !== undefined) o['title'] = s.title;
    if (s.languageType !== undefined) o['languageType'] = s.languageType;
    if (s.jobMode !== undefined) o['jobMode'] = s.jobMode;
    if (s.maxMessagesInContext !== undefined) o['maxMessagesInContext'] = s.maxMessagesInContext;
    if (s.userId !== undefined) o['userId'] = s.userId;
    return o;
  },
  decodeHistoryRecord,
  decodePage,
  decodeJobResult(raw) {
    const o = asObject(raw, 'data');
    return { jobId: str(o, 'data.jobId', 'jobId', 'job_id'), blocks: decodeBlocks(o['blocks'] ?? [], 'data.blocks') };
  },
  encodeJobBody(j, stream) {
    const o: JsonObject = { sessionId: j.sessionId, question: j.question, stream };
    if (j.datasetId !== undefined) o['datasetId'] = j.datasetId;
    if (j.datasourceIdList !== undefined) o['datasourceIdList'] = [...j.datasourceIdList];
    if (j.languageType !== undefined) o['languageType'] = j.languageType;
    return o;
  },
  decodeUploadResult: (raw) => ({ fileKey: str(asObject(raw, 'data'), 'data.fileKey', 'fileKey', 'file_object_key') }),
  decodeDatasetStatus,
  decodeDatasetOverview(raw): DatasetOverview {
    const o = asObject(raw, 'overview');
    return {
      dataset: decodeDataset(o['dataset']),
      dataSourceCount: readOptionalInteger(o, 'dataSourceCount', 'overview.dataSourceCount') ?? 0,
      totalBytes: readOptionalInteger(o, 'totalBytes', 'overview.totalBytes') ?? 0,
      statuses: decodeDatasetStatus(o['statuses'] ?? {}, ''),
      ...decodeDigest(o, 'explorationQuestions', 'overview'),
    };
  },
  decodePresign(raw) {
    const o = asObject(raw, 'data');
    const out: { url: string; expiredAt?: string } = { url: str(o, 'data.url', 'url', 'presigned_url') };
    const exp = readOptionalString(o, 'expiredAt');
    if (exp !== undefined) out.expiredAt = exp;
    return out;
  },
  encodeDeleteBody: () => undefined,
  decodeEvent: (event, data) => decodeEvent(event, data),
  encodeEvent,
  encodeDataset: (d) => ({ id: d.id, name: d.name, description: d.description }),
  encodeDataSource,
  encodeSession(s) {
    const o: JsonObject = {
      id: s.id, title: s.title, languageType: s.languageType, jobMode: s.jobMode,
      maxMessagesInContext: s.maxMessagesInContext, agentId: s.agentId,
    };
    if (s.userId !== undefined) o['userId'] = s.userId;
    return o;
  },
  encodePage: (p, item) => ({ total: p.total, pageNumber: p.pageNumber, pageSize: p.pageSize, records: p.records.map(item) }),
  encodeHistoryRecord: (r) => ({
    jobId: r.jobId,
    question: { blocks: r.question.blocks.map((b) => ({ type: b.type, content: b.content as JsonObject[string] })) },
    answer: { blocks: r.answer.blocks.map(encodeBlock), ...(r.answer.state !== undefined ? { status: r.answer.state.toUpperCase() } : {}) },
  }),
  encodeJobResult: (r) => ({ jobId: r.jobId, blocks: r.blocks.map(encodeBlock) }),
  encodeDatasetStatus,
  encodeDatasetOverview: (o) => ({
    dataset: { id: o.dataset.id, name: o.dataset.name, description: o.dataset.description },
    dataSourceCount: o.dataSourceCount, totalBytes: o.totalBytes, statuses: encodeDatasetStatus(o.statuses),
    ...(o.summary !== undefined ? { summary: o.summary } : {}),
    ...(o.explorationQuestions !== undefined ? { explorationQuestions: [...o.explorationQuestions] } : {}),
    ...(o.keywords !== undefined ? { keywords: [...o.keywords] } : {}),
  }),
};
