/**
 * The service's current API, v2: `/v2/team/...` paths, snake_case bodies (`name`,
 * `output_language`, `job_mode`, `max_contextual_job_history`, `session_id`, `dataset_id`,
 * `datasource_ids`, `file_object_key`, `custom_options`, `job_id`, `group_id`, `expires_at`), the
 * page envelope {total_items, page_number, page_size, records}, `search` as the list keyword,
 * deletes naming the caller in a JSON body, and multipart upload through presigned part URLs.
 * Spellings follow `v2-openapi.json` and what the official clients send and read.
 */
import { decodeBlocks, decodeEvent } from './blockCodecV1';
import { encodeBlockV2, encodeEventV2 } from './blockCodecV2';
import type { ListQuery, WireCodec } from './codec';
import { decodeDigest, decodeJobMode, decodeLanguage, optStr, str, v1Codec } from './codecV1';
import {
  DEFAULT_AGENT_ID, type DataSource, type Dataset, type DatasetOverview,
  type DatasetStatus, type HistoryRecord, type Session,
} from './domain';
import { asArray, asObject, pick, readOptionalInteger, type JsonObject } from './json';

const enc = encodeURIComponent;

function decodeSession(raw: unknown): Session {
  const o = asObject(raw, 'session');
  const s: Session = {
    id: str(o, 'session.id', 'id'),
    title: optStr(o, 'name', 'title') ?? '',
    languageType: decodeLanguage(pick(o, 'output_language', 'languageType')),
    jobMode: decodeJobMode(pick(o, 'job_mode', 'jobMode')),
    maxMessagesInContext: readOptionalInteger(o, 'max_contextual_job_history', 'session.max_contextual_job_history') ?? 10,
    agentId: optStr(o, 'agent_id', 'agentId') ?? DEFAULT_AGENT_ID,
  };
  const userId = optStr(o, 'user_id', 'userId');
  if (userId !== undefined) s.userId = userId;
  return s;
}

function encodeDatasetStatus(s: DatasetStatus): JsonObject {
  return { synched_count: s.synched, synching_count: s.synching, invalid_count: s.invalid };
}

function decodeDatasetStatus(raw: unknown, datasetId: string): DatasetStatus {
  const o = asObject(raw, 'status');
  const n = (k: string): number => readOptionalInteger(o, k, `status.${k}`) ?? 0;
  const synched = n('synched_count');
  const synching = n('synching_count');
  const invalid = n('invalid_count');
  return { datasetId, total: synched + synching + invalid, synched, synching, invalid };
}

function encodeDataSource(d: DataSource): JsonObject {
  const o: JsonObject = { id: d.id, dataset_id: d.datasetId, name: d.name, type: d.type, status: d.status };
  // The OpenAPI: "size ... can be null"; the official MCP server reads it.
  o['size'] = d.size ?? null;
  if (d.userId !== undefined) o['user_id'] = d.userId;
  if (d.error !== undefined) o['error'] = d.error;
  if (d.path !== undefined) o['path'] = d.path;
  if (d.rereading === true) o['rereading'] = true;
  if (d.progress !== undefined) o['progress'] = { read_bytes: d.progress.readBytes, total_bytes: d.progress.totalBytes, ...(d.progress.rowsRead !== undefined ? { rows_read: d.progress.rowsRead } : {}) };
  if (d.rows !== undefined) o['rows'] = d.rows;
  if (d.cacheBytes !== undefined) o['cache_bytes'] = d.cacheBytes;
  return o;
}

function decodeDataSource(raw: unknown): DataSource {
  const d = v1Codec.decodeDataSource(raw);
  // v2 drops `file_name`: its `name` carries the extension.
  if (d.fileName === '') d.fileName = d.name;
  return d;
}

function encodeSession(s: Session): JsonObject {
  const o: JsonObject = {
    id: s.id, name: s.title, output_language: s.languageType, job_mode: s.jobMode,
    max_contextual_job_history: s.maxMessagesInContext, agent_id: s.agentId,
  };
  if (s.userId !== undefined) o['user_id'] = s.userId;
  return o;
}

function encodeHistoryRecord(r: HistoryRecord): JsonObject {
  return {
    job_id: r.jobId,
    question: { blocks: r.question.blocks.map((b) => ({ type: b.type, content: b.content as JsonObject[string] })) },
    answer: { blocks: r.answer.blocks.map(encodeBlockV2), ...(r.answer.state !== undefined ? { status: r.answer.state.toUpperCase() } : {}) },
  };
}

function encodeDatasetOverview(o: DatasetOverview): JsonObject {
  return {
    id: o.dataset.id,
    name: o.dataset.name,
    description: o.dataset.description,
    summary: o.summary ?? '',
    exploration_questions: [...(o.explorationQuestions ?? [])],
    // The schema says string, the example and the official clients use a list: send the list.
    keywords: [...(o.keywords ?? [])],
    // Local extras (not in the OpenAPI), so a v2 client sees what a v1 client sees.
    data_source_count: o.dataSourceCount,
    total_bytes: o.totalBytes,
    status: encodeDatasetStatus(o.statuses),
  };
}

function decodeDatasetOverview(raw: unknown): DatasetOverview {
  const o = asObject(raw, 'overview');
  const dataset: Dataset = { id: str(o, 'overview.id', 'id'), name: optStr(o, 'name') ?? '', description: optStr(o, 'description') ?? '' };
  const statuses = decodeDatasetStatus(o['status'] ?? {}, dataset.id);
  return {
    dataset,
    dataSourceCount: readOptionalInteger(o, 'data_source_count', 'overview.data_source_count') ?? statuses.total,
    totalBytes: readOptionalInteger(o, 'total_bytes', 'overview.total_bytes') ?? 0,
    statuses,
    ...decodeDigest(o, 'exploration_questions', 'overview'),
  };
}

export const v2Codec: WireCodec = {
  version: 'v2',
  paths: {
    datasets: '/v2/team/datasets',
    dataset: (id) => `/v2/team/datasets/${enc(id)}`,
    datasetStatus: (id) => `/v2/team/datasets/${enc(id)}/status`,
    datasetOverview: (id) => `/v2/team/datasets/${enc(id)}/overview`,
    datasources: (ds) => `/v2/team/datasets/${enc(ds)}/datasources`,
    datasource: (ds, id) => `/v2/team/datasets/${enc(ds)}/datasources/${enc(id)}`,
    presign: (ds, id) => `/v2/team/datasets/${enc(ds)}/datasources/${enc(id)}/presign`,
    datasourcesWithoutDataset: '/v2/team/datasources',
    upload: '/v2/team/file/upload-datasource',
    sessions: '/v2/team/sessions',
    session: (id) => `/v2/team/sessions/${enc(id)}`,
    history: (id) => `/v2/team/sessions/${enc(id)}/history`,
    jobs: '/v2/team/jobs',
  },
  userIdParam: 'user_id',
  uploadFileField: 'file',
  listQuery(resource, q: ListQuery) {
    const out: Record<string, string> = {};
    if (q.pageNumber !== undefined) out['page_number'] = String(q.pageNumber);
    if (q.pageSize !== undefined) out['page_size'] = String(q.pageSize);
    if (q.keyword !== undefined && q.keyword !== '' && (resource === 'datasets' || resource === 'sessions')) out['search'] = q.keyword;
    if (resource === 'datasources' && q.statuses && q.statuses.length > 0) out['status'] = q.statuses.join(',');
    if (q.userId !== undefined) out['user_id'] = q.userId;
    return out;
  },
  encodeDatasetBody: (d) => ({ name: d.name, description: d.description }),
  decodeDataset: (raw) => v1Codec.decodeDataset(raw),
  decodeCreated: (raw) => ({ id: str(asObject(raw, 'data'), 'data.id', 'id') }),
  decodeDataSource,
  encodeDataSourceBody(d, userId) {
    // v2 has one name, which must carry the extension; `file_name` is gone.
    const name = d.name !== undefined && /\.[^.]+$/.test(d.name) ? d.name : d.fileName;
    const o: JsonObject = { name, type: 'FILE' };
    if (d.url !== undefined) o['url'] = d.url;
    if (d.path !== undefined) o['path'] = d.path;
    if (d.fileKey !== undefined) o['file_object_key'] = d.fileKey;
    if (userId !== undefined) o['user_id'] = userId;
    return o;
  },
  decodeSession,
  encodeSessionBody(s) {
    const o: JsonObject = {};
    if (s.title !== undefined) o['name'] = s.title;
    if (s.languageType !== undefined) o['output_language'] = s.languageType;
    if (s.jobMode !== undefined) o['job_mode'] = s.jobMode;
    if (s.maxMessagesInContext !== undefined) o['max_contextual_job_history'] = s.maxMessagesInContext;
    o['agent_id'] = s.agentId ?? DEFAULT_AGENT_ID;
    if (s.userId !== undefined) o['user_id'] = s.userId;
    return o;
  },
  encodeSessionPatch(s) {
    const o: JsonObject = {};
    if (s.title !== undefined) o['name'] = s.title;
    if (s.languageType !== undefined) o['output_language'] = s.languageType;
    if (s.jobMode !== undefined) o['job_mode'] = s.jobMode;
    if (s.maxMessagesInContext !== undefined) o['max_contextual_job_history'] = s.maxMessagesInContext;
    if (s.userId !== undefined) o['user_id'] = s.userId;
    return o;
  },
  decodeHistoryRecord: (raw) => v1Codec.decodeHistoryRecord(raw),
  decodePage: (raw, item) => v1Codec.decodePage(raw, item),
  decodeJobResult(raw) {
    const o = asObject(raw, 'data');
    return { jobId: str(o, 'data.job_id', 'job_id', 'jobId'), blocks: decodeBlocks(o['blocks'] ?? [], 'data.blocks') };
  },
  encodeJobBody(j, stream) {
    const o: JsonObject = { session_id: j.sessionId, question: j.question, stream };
    if (j.datasetId !== undefined) o['dataset_id'] = j.datasetId;
    if (j.datasourceIdList !== undefined) o['datasource_ids'] = [...j.datasourceIdList];
    if (j.languageType !== undefined) o['output_language'] = j.languageType;
    if (j.jobMode !== undefined) o['job_mode'] = j.jobMode;
    if (j.customOptions !== undefined) {
      const c: JsonObject = {};
      if (j.customOptions.userPrompt !== undefined) c['user_prompt'] = j.customOptions.userPrompt;
      if (j.customOptions.withCitation !== undefined) c['with_citation'] = j.customOptions.withCitation;
      o['custom_options'] = c;
    }
    if (j.userId !== undefined) o['user_id'] = j.userId;
    return o;
  },
  decodeUploadResult: (raw) => ({ fileKey: str(asObject(raw, 'data'), 'data.file_object_key', 'file_object_key', 'fileKey') }),
  decodeDatasetStatus,
  decodeDatasetOverview,
  decodePresign(raw) {
    const o = asObject(raw, 'data');
    const out: { url: string; expiredAt?: string } = { url: str(o, 'data.presigned_url', 'presigned_url', 'url') };
    const exp = optStr(o, 'expires_at', 'expiredAt');
    if (exp !== undefined) out.expiredAt = exp;
    return out;
  },
  encodeDeleteBody: (userId): JsonObject => (userId !== undefined ? { user_id: userId } : {}),
  decodeEvent: (event, data) => decodeEvent(event, data),
  encodeEvent: encodeEventV2,
  encodeDataset: (d) => ({ id: d.id, name: d.name, description: d.description }),
  encodeDataSource,
  encodeSession,
  encodePage: (p, item) => ({ total_items: p.total, page_number: p.pageNumber, page_size: p.pageSize, records: p.records.map(item) }),
  encodeHistoryRecord,
  encodeJobResult: (r) => ({ job_id: r.jobId, blocks: r.blocks.map(encodeBlockV2) }),
  encodeDatasetStatus,
  encodeDatasetOverview,
};

// ---- multipart upload (v2 only) ------------------------------------------------------------

/** One part of a multipart upload: the server decides sizes and signs one URL per part. */
export interface UploadPart {
  number: number;
  size: number;
  url: string;
}

export interface MultipartPlan {
  uploadId: string;
  fileKey: string;
  parts: UploadPart[];
}

export interface PartEtag {
  number: number;
  etag: string;
}

/** Strips the quotes S3-style servers put around an ETag (the official clients do the same). */
export function bareEtag(etag: string): string {
  return etag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

export const v2Multipart = {
  paths: {
    init: '/v2/team/file/init-multipart-upload',
    complete: '/v2/team/file/complete-multipart-upload',
  },
  encodeInitBody: (f: { fileName: string; fileSize: number; userId?: string }): JsonObject => ({
    file_name: f.fileName, file_size: f.fileSize, ...(f.userId !== undefined ? { user_id: f.userId } : {}),
  }),
  decodeInit(raw: unknown): MultipartPlan {
    const o = asObject(raw, 'data');
    const parts = asArray(o['part_items'], 'data.part_items').map((p, i) => {
      const po = asObject(p, `data.part_items[${i}]`);
      const number = readOptionalInteger(po, 'number', `data.part_items[${i}].number`) ?? readOptionalInteger(po, 'part_number') ?? i + 1;
      const size = readOptionalInteger(po, 'size', `data.part_items[${i}].size`) ?? 0;
      return { number, size, url: str(po, `data.part_items[${i}].upload_url`, 'upload_url') };
    });
    return { uploadId: str(o, 'data.upload_id', 'upload_id'), fileKey: str(o, 'data.file_object_key', 'file_object_key'), parts };
  },
  /**
   * The OpenAPI's schema names a part `part_number`, its example and both official clients send
   * `number`: both are sent, so either reading of the contract is satisfied.
   */
  encodeCompleteBody: (c: { fileKey: string; uploadId: string; parts: readonly PartEtag[]; userId?: string }): JsonObject => ({
    file_object_key: c.fileKey,
    upload_id: c.uploadId,
    part_etags: c.parts.map((p) => ({ number: p.number, part_number: p.number, etag: p.etag })),
    ...(c.userId !== undefined ? { user_id: c.userId } : {}),
  }),
  decodeComplete: (raw: unknown): { fileKey: string } => ({ fileKey: str(asObject(raw, 'data'), 'data.file_object_key', 'file_object_key') }),
  encodeInit: (p: MultipartPlan): JsonObject => ({
    upload_id: p.uploadId,
    file_object_key: p.fileKey,
    part_items: p.parts.map((x) => ({ number: x.number, size: x.size, upload_url: x.url })),
  }),
  encodeComplete: (r: { fileKey: string }): JsonObject => ({ file_object_key: r.fileKey }),
};

