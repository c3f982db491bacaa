/**
 * v1 wire spelling of answer blocks and stream events. Decoders accept every variant the real
 * service sends (camelCase and snake_case fields, `expiredAt` and `expires_at`, bare URL strings
 * for history tables) and normalise them, so the fold and the renderers see one shape.
 */
import type { Block, BlockPlace, BlockType, FileRef, JobEvent, SourceRef, Stage, Task, TaskStatus } from './domain';
import {
  asArray, asObject, isObject, pick, readOptionalInteger, readOptionalString, readString, tryParseJson,
  WireFormatError, type JsonObject,
} from './json';

const BLOCK_TYPES: readonly BlockType[] = ['MESSAGE', 'CODE', 'TABLE', 'IMAGE', 'SOURCES', 'QUESTIONS'];

export function isBlockType(value: string): value is BlockType {
  return (BLOCK_TYPES as readonly string[]).includes(value);
}

export function decodeStage(value: unknown): Stage {
  // The exact spellings first: this runs per streamed fragment, and toLowerCase allocates.
  if (value === 'Analyze') return 'Analyze';
  if (value === 'Respond') return 'Respond';
  return typeof value === 'string' && value.toLowerCase() === 'analyze' ? 'Analyze' : 'Respond';
}

function decodeTaskStatus(value: unknown): TaskStatus {
  if (value === 'done' || value === 'error') return value;
  return 'running';
}

/** Last path segment of a URL, for bare-URL tables in history that carry no name. */
export function fileNameFromUrl(url: string): string {
  try {
    const segments = new URL(url).pathname.split('/').filter((s) => s.length > 0);
    const last = segments[segments.length - 1];
    return last ? decodeURIComponent(last) : 'file';
  } catch {
    return 'file';
  }
}

export function decodeFileRef(raw: unknown, field: string): FileRef {
  if (typeof raw === 'string') return { url: raw, name: fileNameFromUrl(raw) };
  const o = asObject(raw, field);
  const url = readString(o, 'url', `${field}.url`);
  const name = readOptionalString(o, 'name', `${field}.name`) ?? fileNameFromUrl(url);
  // v2 streams spell it `expired_at` (streaming docs) as well as `expires_at` (OpenAPI).
  const expires = pick(o, 'expiredAt', 'expires_at', 'expired_at', 'expiredTime');
  const ref: FileRef = { url, name };
  if (typeof expires === 'string' && expires.length > 0) ref.expiredAt = expires;
  else if (typeof expires === 'number' && Number.isFinite(expires)) {
    // Some payloads carry epoch seconds or milliseconds; normalise to ISO so expiry checks are uniform.
    ref.expiredAt = new Date(expires < 1e12 ? expires * 1000 : expires).toISOString();
  }
  return ref;
}

function decodeSource(raw: unknown, field: string): SourceRef {
  const o = asObject(raw, field);
  const str = (...keys: string[]): string => {
    const v = pick(o, ...keys);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
  };
  const ref: SourceRef = {
    source: str('source', 'fileName', 'file_name'),
    datasourceId: str('datasourceId', 'datasource_id'),
    datasetId: str('datasetId', 'dataset_id'),
    fileType: str('fileType', 'file_type'),
    externalId: str('externalId', 'external_id'),
  };
  const id = str('id');
  if (id) ref.id = id;
  const pageNo = pick(o, 'pageNo', 'page_no');
  if (typeof pageNo === 'number' && Number.isFinite(pageNo)) ref.pageNo = pageNo;
  const content = pick(o, 'content');
  if (typeof content === 'string') ref.content = content;
  return ref;
}

function decodeStrings(raw: unknown, field: string): string[] {
  return asArray(raw, field).filter((q): q is string => typeof q === 'string');
}

/**
 * Builds a block from its type, content and place, normalising the contract's fixed group ids:
 * SOURCES always has group id '' and QUESTIONS '-1' with no group name (streams send -1 for both).
 * Built as plain literals, not spreads: this runs once per streamed fragment, and object spread
 * was the single largest cost of the streaming path in profiles (bench/foldBench.ts).
 */
export function makeBlock(type: BlockType, content: unknown, place: BlockPlace, field = 'content'): Block {
  const { groupId, groupName, stage } = place;
  switch (type) {
    case 'MESSAGE':
    case 'CODE':
      if (typeof content !== 'string') throw new WireFormatError(field, 'a string');
      return groupName === undefined ? { groupId, stage, type, content } : { groupId, stage, groupName, type, content };
    case 'TABLE':
    case 'IMAGE': {
      const ref = decodeFileRef(content, field);
      return groupName === undefined ? { groupId, stage, type, content: ref } : { groupId, stage, groupName, type, content: ref };
    }
    case 'SOURCES': {
      const items = asArray(content, field).map((s, i) => decodeSource(s, `${field}[${i}]`));
      return groupName === undefined
        ? { groupId: '', stage, type, content: items }
        : { groupId: '', stage, groupName, type, content: items };
    }
    case 'QUESTIONS':
      return { groupId: '-1', stage, type, content: decodeStrings(content, field) };
  }
}

function decodePlace(o: Record<string, unknown>): BlockPlace {
  // `??` is pick() without its rest-argument array; same rule (first value not null/undefined).
  const gid = o['groupId'] ?? o['group_id'] ?? o['id'];
  const gname = o['groupName'] ?? o['group_name'];
  const place: BlockPlace = {
    groupId: typeof gid === 'string' ? gid : typeof gid === 'number' ? String(gid) : '',
    stage: decodeStage(o['stage']),
  };
  // An empty name is the same as none; normalising here keeps stream and non-stream blocks equal.
  if (typeof gname === 'string' && gname !== '') place.groupName = gname;
  return place;
}

/** A block of a non-stream response or a history record. */
export function decodeBlock(raw: unknown, field = 'block'): Block {
  const o = asObject(raw, field);
  const type = readString(o, 'type', `${field}.type`);
  if (!isBlockType(type)) throw new WireFormatError(`${field}.type`, `one of ${BLOCK_TYPES.join(', ')}`);
  return makeBlock(type, o['content'], decodePlace(o), `${field}.content`);
}

/** Decodes blocks, skipping unknown block types (a newer service may add some) but not bad ones. */
export function decodeBlocks(raw: unknown, field = 'blocks'): Block[] {
  const out: Block[] = [];
  asArray(raw, field).forEach((b, i) => {
    if (isObject(b) && typeof b['type'] === 'string' && !isBlockType(b['type'])) return;
    out.push(decodeBlock(b, `${field}[${i}]`));
  });
  return out;
}

function encodeFileRef(ref: FileRef): JsonObject {
  const o: JsonObject = { url: ref.url, name: ref.name };
  if (ref.expiredAt !== undefined) o['expiredAt'] = ref.expiredAt;
  return o;
}

function encodeSource(s: SourceRef): JsonObject {
  const o: JsonObject = {
    source: s.source, datasourceId: s.datasourceId, datasetId: s.datasetId, fileType: s.fileType,
    externalId: s.externalId,
  };
  if (s.id !== undefined) o['id'] = s.id;
  // The real service sends a cited page and passage; the decoder reads them, so the encoder keeps them.
  if (s.pageNo !== undefined) o['pageNo'] = s.pageNo;
  if (s.content !== undefined) o['content'] = s.content;
  return o;
}

export function encodeBlockContent(block: Block): JsonObject[string] {
  return encodeBlockContentWith(block, encodeFileRef, encodeSource);
}

/** A block's content with a version's spelling of file references and sources. */
export function encodeBlockContentWith(block: Block, fileRef: (r: FileRef) => JsonObject, source: (s: SourceRef) => JsonObject): JsonObject[string] {
  switch (block.type) {
    case 'MESSAGE':
    case 'CODE':
      return block.content;
    case 'TABLE':
    case 'IMAGE':
      return fileRef(block.content);
    case 'SOURCES':
      return block.content.map(source);
    case 'QUESTIONS':
      return [...block.content];
  }
}

/** The contract's non-stream block: {type, content, groupId, groupName, stage}. */
export function encodeBlock(block: Block): JsonObject {
  const o: JsonObject = { type: block.type, content: encodeBlockContent(block), groupId: block.groupId };
  if (block.groupName !== undefined) o['groupName'] = block.groupName;
  o['stage'] = block.stage;
  return o;
}

// ---- stream events -------------------------------------------------------------------------

/** One SSE frame before serialisation. */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

/** choices[0].delta.content. Field names for errors are built only on failure (hot path). */
function deltaContent(o: Record<string, unknown>, field: string): unknown {
  const choices = o['choices'];
  if (!Array.isArray(choices)) throw new WireFormatError(`${field}.choices`, 'an array');
  const first: unknown = choices[0];
  if (!isObject(first)) throw new WireFormatError(`${field}.choices[0]`, 'an object');
  const delta = first['delta'];
  if (!isObject(delta)) throw new WireFormatError(`${field}.choices[0].delta`, 'an object');
  return delta['content'];
}

function decodeTask(content: unknown, place: BlockPlace, field: string): Task {
  const c = asObject(content, field);
  const task: Task = {
    id: readOptionalString(c, 'id', `${field}.id`) ?? place.groupId,
    name: readOptionalString(c, 'name', `${field}.name`) ?? place.groupName ?? '',
    status: decodeTaskStatus(c['status']),
    stage: c['stage'] === undefined ? place.stage : decodeStage(c['stage']),
  };
  const parent = pick(c, 'parentId', 'parent_id');
  if (typeof parent === 'string' && parent.length > 0) task.parentId = parent;
  if (isObject(c['properties'])) task.properties = c['properties'];
  return task;
}

function decodeErrorContent(content: unknown): { message: string; code?: number } {
  if (typeof content === 'string') return { message: content };
  if (isObject(content)) {
    const text = pick(content, 'code', 'message', 'msg');
    const num = readOptionalIntegerSafe(content, 'errorCode') ?? readOptionalIntegerSafe(content, 'error_code');
    const out: { message: string; code?: number } = { message: typeof text === 'string' ? text : 'the service reported an error' };
    if (typeof text === 'number') out.code = text;
    if (num !== undefined) out.code = num;
    return out;
  }
  return { message: 'the service reported an error' };
}

function readOptionalIntegerSafe(o: Record<string, unknown>, key: string): number | undefined {
  try {
    return readOptionalInteger(o, key);
  } catch {
    return undefined;
  }
}

/**
 * Decodes one SSE frame. Throws {@link WireFormatError} for malformed JSON or shapes of a known
 * kind; unknown kinds come back as `UNKNOWN` so callers can log them and go on.
 */
export function decodeEvent(event: string, data: string, field = event): JobEvent {
  // Text fragments first: nearly every frame of a stream is one, and each costs only its parse.
  if (event === 'MESSAGE' || event === 'CODE') {
    const parsed = tryParseJson(data);
    if (isObject(parsed)) {
      const content = deltaContent(parsed, field);
      if (typeof content === 'string') return { kind: 'BLOCK', block: makeBlock(event, content, decodePlace(parsed)) };
    }
  }
  switch (event) {
    case 'JOB_ID':
      return { kind: 'JOB_ID', jobId: data.trim() };
    case 'TITLE_GENERATION':
      return { kind: 'TITLE_GENERATION', title: data };
    case 'END_MARK':
      return { kind: 'END', ok: data.trim() !== '[ERROR]' };
  }
  const known = event === 'TASK' || event === 'TRIGGER' || event === 'ERROR' || isBlockType(event);
  if (!known) return { kind: 'UNKNOWN', event, data };
  const parsed = tryParseJson(data);
  if (parsed === undefined) {
    if (event === 'ERROR') return { kind: 'ERROR', message: data || 'the service reported an error' };
    throw new WireFormatError(`${field} data`, 'JSON');
  }
  const o = isObject(parsed) ? parsed : asObject(parsed, `${field} data`);
  const place = decodePlace(o);
  const content = deltaContent(o, field);
  // The common case (a text fragment) cannot fail, so skip building an error field name for it.
  if ((event === 'MESSAGE' || event === 'CODE') && typeof content === 'string') {
    return { kind: 'BLOCK', block: makeBlock(event, content, place) };
  }
  if (event === 'TASK') return { kind: 'TASK', place, task: decodeTask(content, place, `${field}.content`) };
  if (event === 'TRIGGER') {
    const c = asObject(content, `${field}.content`);
    const args = isObject(c['arguments']) ? c['arguments'] : {};
    return { kind: 'TRIGGER', place, name: readOptionalString(c, 'name') ?? '', arguments: args };
  }
  if (event === 'ERROR') return { kind: 'ERROR', ...decodeErrorContent(content) };
  if (!isBlockType(event)) return { kind: 'UNKNOWN', event, data };
  return { kind: 'BLOCK', block: makeBlock(event, content, place, `${field}.content`) };
}

/**
 * How one API version writes a stream: the spelling of the group fields in every frame, the block
 * content, and whether a task without a parent says `parent_id: null` (v2) or leaves it out (v1).
 */
export interface EventSpelling {
  groupId: string;
  groupName: string;
  content(block: Block): JsonObject[string];
  nullParent: boolean;
}

const V1_SPELLING: EventSpelling = { groupId: 'groupId', groupName: 'groupName', content: (b) => encodeBlockContent(b), nullParent: false };

function frameData(place: BlockPlace, content: JsonObject[string], created: number, sp: EventSpelling): string {
  const o: JsonObject = {
    id: place.groupId,
    model: 'team-data-local',
    choices: [{ delta: { role: null, content }, index: 0, finish_reason: null }],
    created,
    [sp.groupId]: place.groupId,
    [sp.groupName]: place.groupName ?? '',
    stage: place.stage,
  };
  return JSON.stringify(o);
}

/** Encodes an event as the real service frames it (SOURCES and QUESTIONS with group id -1). */
export function encodeEvent(e: JobEvent, created: number): SseFrame | undefined {
  return encodeEventAs(e, created, V1_SPELLING);
}

/** Encodes an event in one version's spelling (see {@link EventSpelling}). */
export function encodeEventAs(e: JobEvent, created: number, sp: EventSpelling): SseFrame | undefined {
  switch (e.kind) {
    case 'JOB_ID':
      return { event: 'JOB_ID', data: e.jobId };
    case 'TITLE_GENERATION':
      return { event: 'TITLE_GENERATION', data: e.title };
    case 'END':
      return { event: 'END_MARK', data: e.ok ? '[DONE]' : '[ERROR]' };
    case 'UNKNOWN':
      return undefined;
    case 'ERROR':
      return { event: 'ERROR', data: frameData({ groupId: '-1', stage: 'Respond' }, { code: e.message }, created, sp) };
    case 'TASK': {
      const t: JsonObject = { name: e.task.name, id: e.task.id, status: e.task.status };
      if (sp.nullParent) t['parent_id'] = e.task.parentId ?? null;
      t['stage'] = e.task.stage;
      if (!sp.nullParent && e.task.parentId !== undefined) t['parent_id'] = e.task.parentId;
      t['properties'] = (e.task.properties ?? {}) as JsonObject;
      return { id: e.place.groupId, event: 'TASK', data: frameData(e.place, t, created, sp) };
    }
    case 'TRIGGER': {
      const c: JsonObject = { name: e.name, arguments: e.arguments as JsonObject };
      return { id: e.place.groupId, event: 'TRIGGER', data: frameData(e.place, c, created, sp) };
    }
    case 'BLOCK': {
      const b = e.block;
      const place: BlockPlace = b.type === 'SOURCES' || b.type === 'QUESTIONS' ? { ...b, groupId: '-1' } : b;
      return { id: place.groupId, event: b.type, data: frameData(place, sp.content(b), created, sp) };
    }
  }
}

/** Serialises a frame exactly as the real service does: no space after the colon. */
export function formatSseFrame(frame: SseFrame): string {
  let out = frame.id !== undefined ? `id:${frame.id.replace(/[\r\n]/g, ' ')}\n` : '';
  out += `event:${frame.event}\n`;
  for (const line of frame.data.split(/\r\n|\r|\n/)) out += `data:${line}\n`;
  return `${out}\n`;
}
