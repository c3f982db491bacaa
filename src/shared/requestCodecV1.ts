/**
 * The server direction of the v1 spelling: strict decoders for request bodies and query strings
 * (the client side lives in {@link v1Codec}). Every failure is an {@link InvalidFieldError} whose
 * message names the wire field ("fileName: required"), because the contract's code 100 is only
 * useful to a caller if it says which field was wrong. Contract rules that belong to the shape of
 * a request (title truncation, 0..10 context, enums, exactly one of url/fileKey, lengths) are
 * enforced here so that every route applies them the same way.
 */
import { V1_HEADERS, v1Codec } from './codecV1';
import {
  DATA_SOURCE_STATUSES, DEFAULT_AGENT_ID, DEFAULT_PAGE_SIZE, JOB_MODES, LANGUAGE_TYPES, MAX_TITLE_LENGTH,
  type DataSourceStatus, type JobMode, type JobRequest, type LanguageType, type NewDataSource, type NewSession,
} from './domain';
import { isObject, type JsonObject } from './json';

/** A request field that is missing, of the wrong type or out of range. */
export class InvalidFieldError extends Error {
  readonly field: string;
  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.name = 'InvalidFieldError';
    this.field = field;
  }
}

/** Longest name, keyword or id the service accepts (service-notes: names and search <= 128). */
export const MAX_NAME_LENGTH = 128;
export const MAX_DESCRIPTION_LENGTH = 4096;
export const MAX_FILE_NAME_LENGTH = 255;
export const MAX_URL_LENGTH = 4096;
/** No maximum page size is documented; the official client uses 100, so 1000 leaves room. */
export const MAX_PAGE_SIZE = 1000;

export type ListResource = 'datasets' | 'sessions' | 'datasources' | 'history';

export interface DecodedListQuery {
  pageNumber: number;
  pageSize: number;
  /** Dataset name/description or session title keyword; undefined when absent or empty. */
  keyword?: string;
  /** Data source statuses to keep; undefined means all. */
  statuses?: DataSourceStatus[];
  userId?: string;
}

export interface DecodedDataSourceBody extends NewDataSource {
  userId?: string;
}

export interface DecodedJobBody extends JobRequest {
  stream: boolean;
}

/** Minimal read access to a query string, so both URLSearchParams and plain maps work. */
export interface QueryReader {
  get(name: string): string | null;
}

/** Longest `path` of an in-place data source (local service only). */
export const MAX_PATH_LENGTH = 4096;

export function body(raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) throw new InvalidFieldError('body', 'expected a JSON object');
  return raw;
}

export function optionalString(o: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new InvalidFieldError(key, 'expected a string');
  if (v.length > max) throw new InvalidFieldError(key, `at most ${max} characters`);
  return v;
}

export function requiredString(o: Record<string, unknown>, key: string, max: number): string {
  const v = optionalString(o, key, max);
  if (v === undefined) throw new InvalidFieldError(key, 'required');
  if (v.trim() === '') throw new InvalidFieldError(key, 'must not be empty');
  return v;
}

export function enumValue<T extends string>(o: Record<string, unknown>, key: string, values: readonly T[]): T | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  throw new InvalidFieldError(key, `expected one of ${values.join(', ')}`);
}

function contextSize(o: Record<string, unknown>): number | undefined {
  const v = o['maxMessagesInContext'];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 10) {
    throw new InvalidFieldError('maxMessagesInContext', 'expected an integer from 0 to 10');
  }
  return n;
}

/** Titles longer than the limit are truncated, not rejected (contract); by code point, not UTF-16 unit. */
function title(o: Record<string, unknown>): string | undefined {
  const v = o['title'];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new InvalidFieldError('title', 'expected a string');
  const chars = Array.from(v);
  return chars.length > MAX_TITLE_LENGTH ? chars.slice(0, MAX_TITLE_LENGTH).join('') : v;
}

function sessionFields(o: Record<string, unknown>): Partial<NewSession> {
  const s: Partial<NewSession> = {};
  const t = title(o);
  if (t !== undefined) s.title = t;
  const lang = enumValue<LanguageType>(o, 'languageType', LANGUAGE_TYPES);
  if (lang !== undefined) s.languageType = lang;
  const mode = enumValue<JobMode>(o, 'jobMode', JOB_MODES);
  if (mode !== undefined) s.jobMode = mode;
  const ctx = contextSize(o);
  if (ctx !== undefined) s.maxMessagesInContext = ctx;
  const userId = optionalString(o, 'userId', MAX_NAME_LENGTH);
  if (userId !== undefined && userId !== '') s.userId = userId;
  return s;
}

export function positiveInt(q: QueryReader, name: string, fallback: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new InvalidFieldError(name, 'expected a positive integer');
  const n = Number(raw);
  if (n > max) throw new InvalidFieldError(name, `at most ${max}`);
  return n;
}

export function httpUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new InvalidFieldError('url', 'expected an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidFieldError('url', 'only http and https URLs are supported');
  }
  return value;
}

/**
 * What the local service needs from a version's request spelling. Routes are written once against
 * this, and registered once per version with that version's request codec and {@link WireCodec}.
 */
export interface RequestCodec {
  readonly version: 'v1' | 'v2';
  readonly headers: typeof V1_HEADERS;
  /** Extra paths (prose spellings) that reach the same operation. */
  readonly aliases: { readonly upload: readonly string[]; readonly jobs: readonly string[] };
  /** The caller's user id from the query, if any. */
  userId(q: QueryReader): string | undefined;
  decodeListQuery(resource: ListResource, q: QueryReader): DecodedListQuery;
  decodeDatasetBody(raw: unknown): { name: string; description: string; userId?: string };
  decodeDatasetPatch(raw: unknown): { name?: string; description?: string; userId?: string };
  decodeDataSourceBody(raw: unknown): DecodedDataSourceBody;
  decodeSessionBody(raw: unknown): NewSession;
  decodeSessionPatch(raw: unknown): Partial<NewSession>;
  decodeJobBody(raw: unknown): DecodedJobBody;
  /** True when a DELETE carries a JSON body naming the caller (v2). */
  readonly deleteBodyHasUser: boolean;
  decodeDeleteBody(raw: unknown): { userId?: string };
  /** True when presign reads a JSON body (v2: `expires_in`, `user_id`). */
  readonly presignHasBody: boolean;
  decodePresignBody(raw: unknown): { expiresInSec?: number; userId?: string };
  encodeCreated(id: string): JsonObject;
  encodeUploadResult(r: { fileKey: string }): JsonObject;
  encodePresign(r: { url: string; expiredAt: string }): JsonObject;
}

/**
 * The filters of a list query both versions share: a keyword (under the version's parameter name)
 * for datasets and sessions, and a comma-separated status list for data sources.
 */
export function readListFilters(out: DecodedListQuery, q: QueryReader, resource: ListResource, keywordName: string | undefined): void {
  if (keywordName !== undefined) {
    const k = q.get(keywordName);
    if (k !== null && k.length > MAX_NAME_LENGTH) {
      throw new InvalidFieldError(keywordName, `at most ${MAX_NAME_LENGTH} characters`);
    }
    if (k !== null && k.trim() !== '') out.keyword = k.trim();
  }
  if (resource === 'datasources') {
    const s = q.get('status');
    if (s !== null && s.trim() !== '') {
      const wanted = s.split(',').map((x) => x.trim()).filter((x) => x !== '');
      for (const w of wanted) {
        if (!(DATA_SOURCE_STATUSES as readonly string[]).includes(w)) {
          throw new InvalidFieldError('status', `expected a comma-separated list of ${DATA_SOURCE_STATUSES.join(', ')}`);
        }
      }
      out.statuses = [...new Set(wanted)] as DataSourceStatus[];
    }
  }
}

/** Server-side v1 request decoding; the names here mirror what {@link v1Codec} encodes. */
export const v1RequestCodec: RequestCodec = {
  version: 'v1',
  /** Header names of the v1 API. */
  headers: V1_HEADERS,
  /** Paths the docs' prose uses for the same operations as the codec's canonical paths. */
  aliases: {
    upload: ['/v1/file/upload_datasource', '/v1/team/file/upload_datasource'],
    jobs: ['/v1/job'],
  },

  /** The caller's user id from the query, if any. */
  userId(q: QueryReader): string | undefined {
    const v = q.get(v1Codec.userIdParam);
    if (v === null || v === '') return undefined;
    if (v.length > MAX_NAME_LENGTH) throw new InvalidFieldError('userId', `at most ${MAX_NAME_LENGTH} characters`);
    return v;
  },

  decodeListQuery(resource: ListResource, q: QueryReader): DecodedListQuery {
    const out: DecodedListQuery = {
      pageNumber: positiveInt(q, 'pageNumber', 1, 1_000_000_000),
      pageSize: positiveInt(q, 'pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    };
    readListFilters(out, q, resource, resource === 'datasets' ? 'name' : resource === 'sessions' ? 'title' : undefined);
    const userId = v1RequestCodec.userId(q);
    if (userId !== undefined) out.userId = userId;
    return out;
  },

  decodeDatasetBody(raw: unknown): { name: string; description: string } {
    const o = body(raw);
    return {
      name: requiredString(o, 'name', MAX_NAME_LENGTH),
      description: optionalString(o, 'description', MAX_DESCRIPTION_LENGTH) ?? '',
    };
  },

  /** Modify dataset: absent fields keep their value. */
  decodeDatasetPatch(raw: unknown): { name?: string; description?: string } {
    const o = body(raw);
    const out: { name?: string; description?: string } = {};
    if (o['name'] !== undefined && o['name'] !== null) out.name = requiredString(o, 'name', MAX_NAME_LENGTH);
    const d = optionalString(o, 'description', MAX_DESCRIPTION_LENGTH);
    if (d !== undefined) out.description = d;
    return out;
  },

  decodeDataSourceBody(raw: unknown): DecodedDataSourceBody {
    const o = body(raw);
    const fileName = requiredString(o, 'fileName', MAX_FILE_NAME_LENGTH);
    const type = o['type'];
    if (type === undefined || type === null) throw new InvalidFieldError('type', 'required');
    if (type !== 'FILE') throw new InvalidFieldError('type', 'expected FILE');
    const url = optionalString(o, 'url', MAX_URL_LENGTH);
    const fileKey = optionalString(o, 'fileKey', MAX_FILE_NAME_LENGTH);
    const path = optionalString(o, 'path', MAX_PATH_LENGTH);
    const given = [url, fileKey, path].filter((v) => v !== undefined && v !== '').length;
    if (given !== 1) throw new InvalidFieldError('url, fileKey', 'give exactly one of url and fileKey (or path, on the local service)');
    const hasUrl = url !== undefined && url !== '';
    const hasKey = fileKey !== undefined && fileKey !== '';
    const out: DecodedDataSourceBody = { fileName };
    if (path !== undefined && path !== '') out.path = path;
    const name = optionalString(o, 'name', MAX_NAME_LENGTH);
    if (name !== undefined && name.trim() !== '') out.name = name;
    if (hasUrl) out.url = httpUrl(url);
    if (hasKey) out.fileKey = fileKey;
    const userId = optionalString(o, 'userId', MAX_NAME_LENGTH);
    if (userId !== undefined && userId !== '') out.userId = userId;
    return out;
  },

  decodeSessionBody(raw: unknown): NewSession {
    const o = body(raw);
    const s: NewSession = sessionFields(o);
    const agent = optionalString(o, 'agentId', MAX_NAME_LENGTH);
    s.agentId = agent === undefined || agent === '' ? DEFAULT_AGENT_ID : agent;
    return s;
  },

  /** Modify session: absent fields keep their value; `userId` identifies the caller only. */
  decodeSessionPatch(raw: unknown): Partial<NewSession> {
    return sessionFields(body(raw));
  },

  decodeJobBody(raw: unknown): DecodedJobBody {
    const o = body(raw);
    const sessionId = requiredString(o, 'sessionId', MAX_NAME_LENGTH);
    const q = o['question'];
    if (q === undefined || q === null) throw new InvalidFieldError('question', 'required');
    if (typeof q !== 'string') throw new InvalidFieldError('question', 'expected a string');
    if (q.trim() === '') throw new InvalidFieldError('question', 'must not be empty');
    const stream = o['stream'];
    if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
      throw new InvalidFieldError('stream', 'expected true or false');
    }
    const out: DecodedJobBody = { sessionId, question: q, stream: stream === true };
    const datasetId = optionalString(o, 'datasetId', MAX_NAME_LENGTH);
    if (datasetId !== undefined && datasetId !== '') out.datasetId = datasetId;
    const list = o['datasourceIdList'];
    if (list !== undefined && list !== null) {
      if (!Array.isArray(list)) throw new InvalidFieldError('datasourceIdList', 'expected an array of strings');
      out.datasourceIdList = list.map((id, i) => {
        if (typeof id !== 'string' || id === '' || id.length > MAX_NAME_LENGTH) {
          throw new InvalidFieldError(`datasourceIdList[${i}]`, 'expected a non-empty string id');
        }
        return id;
      });
    }
    const lang = enumValue<LanguageType>(o, 'languageType', LANGUAGE_TYPES);
    if (lang !== undefined) out.languageType = lang;
    return out;
  },

  /** v1 names the caller of a DELETE in the query, never in a body. */
  deleteBodyHasUser: false,
  decodeDeleteBody: () => ({}),
  /** v1's presign takes no body. */
  presignHasBody: false,
  decodePresignBody: () => ({}),

  /** Create operations answer with the new id only. */
  encodeCreated: (id: string): JsonObject => ({ id }),
  encodeUploadResult: (r: { fileKey: string }): JsonObject => ({ fileKey: r.fileKey }),
  encodePresign: (r: { url: string; expiredAt: string }): JsonObject => ({ url: r.url, expiredAt: r.expiredAt }),
};
