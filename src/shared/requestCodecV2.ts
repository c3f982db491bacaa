/**
 * The server direction of the v2 spelling: strict decoders for v2 request bodies and queries (the
 * client side lives in {@link v2Codec}). Failures name the v2 field. Where the v2 docs say a value
 * "will be truncated" (names, descriptions) it is truncated rather than refused, and the spellings
 * the docs' own examples use beside the schema's (`DATA_ANALYSIS` for `DATA_ANALYTICS`, `number`
 * for `part_number`) are accepted.
 */
import { V1_HEADERS } from './codecV1';
import { DEFAULT_AGENT_ID, DEFAULT_PAGE_SIZE, JOB_MODES, LANGUAGE_TYPES, MAX_QUESTION_LENGTH, MAX_TITLE_LENGTH } from './domain';
import type { JobCustomOptions, JobMode, LanguageType, NewSession } from './domain';
import { isObject, type JsonObject } from './json';
import {
  body, enumValue, httpUrl, InvalidFieldError, MAX_NAME_LENGTH, MAX_PAGE_SIZE, MAX_PATH_LENGTH, MAX_URL_LENGTH, optionalString, positiveInt,
  readListFilters, requiredString, type DecodedDataSourceBody, type DecodedJobBody, type DecodedListQuery, type ListResource,
  type QueryReader, type RequestCodec,
} from './requestCodecV1';

/** The modify-dataset docs allow descriptions up to 50,000 characters. */
const MAX_DESCRIPTION_CHARS = 50_000;
/** Presigned links: minimum 60 s, default 600 s (v2 docs). */
export const MIN_PRESIGN_SECONDS = 60;

/** Truncates by code point, as the docs promise for over-long names. */
function truncated(o: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new InvalidFieldError(key, 'expected a string');
  const chars = Array.from(v);
  return chars.length > max ? chars.slice(0, max).join('') : v;
}

function userIdOf(o: Record<string, unknown>): string | undefined {
  const v = optionalString(o, 'user_id', MAX_NAME_LENGTH);
  return v === undefined || v === '' ? undefined : v;
}

/** `job_mode`: the docs' prose and modify-session example say DATA_ANALYSIS for DATA_ANALYTICS. */
function jobMode(o: Record<string, unknown>): JobMode | undefined {
  if (o['job_mode'] === 'DATA_ANALYSIS') return 'DATA_ANALYTICS';
  return enumValue<JobMode>(o, 'job_mode', JOB_MODES);
}

function contextSize(o: Record<string, unknown>): number | undefined {
  const v = o['max_contextual_job_history'];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 10) {
    throw new InvalidFieldError('max_contextual_job_history', 'expected an integer from 0 to 10');
  }
  return v;
}

function sessionFields(o: Record<string, unknown>): Partial<NewSession> {
  const s: Partial<NewSession> = {};
  const name = truncated(o, 'name', MAX_TITLE_LENGTH);
  if (name !== undefined) s.title = name;
  const lang = enumValue<LanguageType>(o, 'output_language', LANGUAGE_TYPES);
  if (lang !== undefined) s.languageType = lang;
  const mode = jobMode(o);
  if (mode !== undefined) s.jobMode = mode;
  const ctx = contextSize(o);
  if (ctx !== undefined) s.maxMessagesInContext = ctx;
  const userId = userIdOf(o);
  if (userId !== undefined) s.userId = userId;
  return s;
}

function customOptions(o: Record<string, unknown>): JobCustomOptions | undefined {
  const raw = o['custom_options'];
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new InvalidFieldError('custom_options', 'expected an object');
  const out: JobCustomOptions = {};
  const prompt = optionalString(raw, 'user_prompt', MAX_QUESTION_LENGTH);
  if (prompt !== undefined) out.userPrompt = prompt;
  const cite = raw['with_citation'];
  if (cite !== undefined && cite !== null) {
    if (typeof cite !== 'boolean') throw new InvalidFieldError('custom_options.with_citation', 'expected true or false');
    out.withCitation = cite;
  }
  return out;
}

function optionalBody(raw: unknown): Record<string, unknown> {
  return raw === undefined ? {} : body(raw);
}

export interface DecodedInitMultipart {
  fileName: string;
  fileSize: number;
  userId?: string;
}

export interface DecodedCompleteMultipart {
  fileKey: string;
  uploadId: string;
  parts: Array<{ number: number; etag: string }>;
  userId?: string;
}

/** Server-side v2 request decoding; the names mirror what {@link v2Codec} encodes. */
export const v2RequestCodec: RequestCodec & {
  decodeInitMultipart(raw: unknown): DecodedInitMultipart;
  decodeCompleteMultipart(raw: unknown): DecodedCompleteMultipart;
} = {
  version: 'v2',
  headers: V1_HEADERS,
  aliases: { upload: [], jobs: [] },

  userId(q: QueryReader): string | undefined {
    const v = q.get('user_id');
    if (v === null || v === '') return undefined;
    if (v.length > MAX_NAME_LENGTH) throw new InvalidFieldError('user_id', `at most ${MAX_NAME_LENGTH} characters`);
    return v;
  },

  decodeListQuery(resource: ListResource, q: QueryReader): DecodedListQuery {
    const out: DecodedListQuery = {
      pageNumber: positiveInt(q, 'page_number', 1, 1_000_000_000),
      pageSize: positiveInt(q, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    };
    readListFilters(out, q, resource, resource === 'datasets' || resource === 'sessions' ? 'search' : undefined);
    const userId = v2RequestCodec.userId(q);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeDatasetBody(raw: unknown) {
    const o = body(raw);
    const name = truncated(o, 'name', MAX_NAME_LENGTH);
    if (name === undefined) throw new InvalidFieldError('name', 'required');
    if (name.trim() === '') throw new InvalidFieldError('name', 'must not be empty');
    const out: { name: string; description: string; userId?: string } = { name, description: truncated(o, 'description', MAX_DESCRIPTION_CHARS) ?? '' };
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeDatasetPatch(raw: unknown) {
    const o = body(raw);
    const out: { name?: string; description?: string; userId?: string } = {};
    const name = truncated(o, 'name', MAX_NAME_LENGTH);
    if (name !== undefined && name.trim() !== '') out.name = name;
    const d = truncated(o, 'description', MAX_DESCRIPTION_CHARS);
    if (d !== undefined && d.trim() !== '') out.description = d;
    if (out.name === undefined && out.description === undefined) throw new InvalidFieldError('name, description', 'cannot both be blank');
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeDataSourceBody(raw: unknown): DecodedDataSourceBody {
    const o = body(raw);
    // v2's one name carries the extension (`example.csv`), so it is also the file name.
    const name = truncated(o, 'name', MAX_NAME_LENGTH);
    if (name === undefined) throw new InvalidFieldError('name', 'required');
    if (name.trim() === '') throw new InvalidFieldError('name', 'must not be empty');
    const type = o['type'];
    if (type === undefined || type === null) throw new InvalidFieldError('type', 'required');
    if (type !== 'FILE') throw new InvalidFieldError('type', 'expected FILE');
    const url = optionalString(o, 'url', MAX_URL_LENGTH);
    const fileKey = optionalString(o, 'file_object_key', 1024);
    const path = optionalString(o, 'path', MAX_PATH_LENGTH);
    const given = [url, fileKey, path].filter((v) => v !== undefined && v !== '').length;
    if (given !== 1) throw new InvalidFieldError('url, file_object_key', 'give exactly one of url and file_object_key (or path, on the local service)');
    const hasUrl = url !== undefined && url !== '';
    const hasKey = fileKey !== undefined && fileKey !== '';
    const out: DecodedDataSourceBody = { fileName: name, name };
    if (path !== undefined && path !== '') out.path = path;
    if (hasUrl) out.url = httpUrl(url);
    if (hasKey) out.fileKey = fileKey;
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeSessionBody(raw: unknown): NewSession {
    const o = body(raw);
    const s: NewSession = sessionFields(o);
    const agent = optionalString(o, 'agent_id', MAX_NAME_LENGTH);
    s.agentId = agent === undefined || agent === '' ? DEFAULT_AGENT_ID : agent;
    return s;
  },

  decodeSessionPatch: (raw: unknown): Partial<NewSession> => sessionFields(body(raw)),

  decodeJobBody(raw: unknown): DecodedJobBody {
    const o = body(raw);
    const sessionId = requiredString(o, 'session_id', MAX_NAME_LENGTH);
    const q = o['question'];
    if (q === undefined || q === null) throw new InvalidFieldError('question', 'required');
    if (typeof q !== 'string') throw new InvalidFieldError('question', 'expected a string');
    if (q.trim() === '') throw new InvalidFieldError('question', 'must not be empty');
    const stream = o['stream'];
    if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw new InvalidFieldError('stream', 'expected true or false');
    const out: DecodedJobBody = { sessionId, question: q, stream: stream === true };
    // The official web client sends `dataset_id: null` when nothing is picked.
    const datasetId = optionalString(o, 'dataset_id', MAX_NAME_LENGTH);
    if (datasetId !== undefined && datasetId !== '') out.datasetId = datasetId;
    const list = o['datasource_ids'];
    if (list !== undefined && list !== null) {
      if (!Array.isArray(list)) throw new InvalidFieldError('datasource_ids', 'expected an array of strings');
      out.datasourceIdList = list.map((id, i) => {
        if (typeof id !== 'string' || id === '' || id.length > MAX_NAME_LENGTH) {
          throw new InvalidFieldError(`datasource_ids[${i}]`, 'expected a non-empty string id');
        }
        return id;
      });
    }
    const lang = enumValue<LanguageType>(o, 'output_language', LANGUAGE_TYPES);
    if (lang !== undefined) out.languageType = lang;
    const mode = jobMode(o);
    if (mode !== undefined) out.jobMode = mode;
    const custom = customOptions(o);
    if (custom !== undefined) out.customOptions = custom;
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  deleteBodyHasUser: true,
  decodeDeleteBody(raw: unknown) {
    const userId = userIdOf(optionalBody(raw));
    return userId !== undefined ? { userId } : {};
  },

  presignHasBody: true,
  decodePresignBody(raw: unknown) {
    const o = optionalBody(raw);
    const out: { expiresInSec?: number; userId?: string } = {};
    const e = o['expires_in'];
    if (e !== undefined && e !== null) {
      if (typeof e !== 'number' || !Number.isInteger(e) || e < MIN_PRESIGN_SECONDS) {
        throw new InvalidFieldError('expires_in', `expected an integer of at least ${MIN_PRESIGN_SECONDS} (seconds)`);
      }
      out.expiresInSec = e;
    }
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeInitMultipart(raw: unknown): DecodedInitMultipart {
    const o = body(raw);
    const fileName = requiredString(o, 'file_name', 255);
    const size = o['file_size'];
    if (size === undefined || size === null) throw new InvalidFieldError('file_size', 'required');
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw new InvalidFieldError('file_size', 'expected a whole number of bytes');
    const out: DecodedInitMultipart = { fileName, fileSize: size };
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeCompleteMultipart(raw: unknown): DecodedCompleteMultipart {
    const o = body(raw);
    const fileKey = requiredString(o, 'file_object_key', 1024);
    const uploadId = requiredString(o, 'upload_id', 1024);
    const list = o['part_etags'];
    if (!Array.isArray(list)) throw new InvalidFieldError('part_etags', 'expected an array of {part_number, etag}');
    if (list.length > 10_000) throw new InvalidFieldError('part_etags', 'at most 10000 parts');
    const parts = list.map((p, i) => {
      if (!isObject(p)) throw new InvalidFieldError(`part_etags[${i}]`, 'expected an object');
      const n = p['part_number'] ?? p['number'];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new InvalidFieldError(`part_etags[${i}].part_number`, 'expected a positive integer');
      return { number: n, etag: requiredString(p, 'etag', 256) };
    });
    const out: DecodedCompleteMultipart = { fileKey, uploadId, parts };
    const userId = userIdOf(o);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  encodeCreated: (id: string): JsonObject => ({ id }),
  encodeUploadResult: (r: { fileKey: string }): JsonObject => ({ file_object_key: r.fileKey }),
  encodePresign: (r: { url: string; expiredAt: string }): JsonObject => ({ presigned_url: r.url, expires_at: r.expiredAt }),
};
