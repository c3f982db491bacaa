/**
 * v2 wire spelling of answer blocks and stream events: `group_id`, `group_name`, `expires_at`,
 * snake_case SOURCES items. Decoding needs nothing of its own: the v1 decoders already accept both
 * spellings (and `expired_at`, which the v2 streaming docs use), so a v2 stream folds into exactly
 * the Answer a v1 stream gives. Only the writing direction differs.
 */
import { decodeBlocks, decodeEvent, type SseFrame } from './blockCodecV1';
import type { Block, BlockPlace, FileRef, JobEvent, SourceRef } from './domain';
import type { JsonObject } from './json';

export { decodeBlocks as decodeBlocksV2, decodeEvent as decodeEventV2 };

function encodeFileRef(ref: FileRef): JsonObject {
  const o: JsonObject = { url: ref.url, name: ref.name };
  if (ref.expiredAt !== undefined) o['expires_at'] = ref.expiredAt;
  return o;
}

function encodeSource(s: SourceRef): JsonObject {
  const o: JsonObject = {
    source: s.source, datasource_id: s.datasourceId, dataset_id: s.datasetId, file_type: s.fileType, external_id: s.externalId,
  };
  if (s.id !== undefined) o['id'] = s.id;
  if (s.pageNo !== undefined) o['page_no'] = s.pageNo;
  if (s.content !== undefined) o['content'] = s.content;
  return o;
}

export function encodeBlockContentV2(block: Block): JsonObject[string] {
  switch (block.type) {
    case 'MESSAGE':
    case 'CODE':
      return block.content;
    case 'TABLE':
    case 'IMAGE':
      return encodeFileRef(block.content);
    case 'SOURCES':
      return block.content.map(encodeSource);
    case 'QUESTIONS':
      return [...block.content];
  }
}

/**
 * The OpenAPI's BlockDTO: {type, content, group_id, group_name, stage}. Every field is present, as
 * the schema requires; QUESTIONS carry `group_name: null` like the docs' example.
 */
export function encodeBlockV2(block: Block): JsonObject {
  return {
    type: block.type,
    content: encodeBlockContentV2(block),
    group_id: block.groupId,
    group_name: block.type === 'QUESTIONS' ? null : block.groupName ?? '',
    stage: block.stage,
  };
}

function frameData(place: BlockPlace, content: JsonObject[string], created: number): string {
  const o: JsonObject = {
    id: place.groupId,
    model: 'team-data-local',
    choices: [{ delta: { role: null, content }, index: 0, finish_reason: null }],
    created,
    group_id: place.groupId,
    group_name: place.groupName ?? '',
    stage: place.stage,
  };
  return JSON.stringify(o);
}

/** Encodes an event as the v2 service frames it (SOURCES and QUESTIONS with group id -1). */
export function encodeEventV2(e: JobEvent, created: number): SseFrame | undefined {
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
      return { event: 'ERROR', data: frameData({ groupId: '-1', stage: 'Respond' }, { code: e.message }, created) };
    case 'TASK': {
      const t: JsonObject = {
        name: e.task.name, id: e.task.id, status: e.task.status, parent_id: e.task.parentId ?? null, stage: e.task.stage,
        properties: (e.task.properties ?? {}) as JsonObject,
      };
      return { id: e.place.groupId, event: 'TASK', data: frameData(e.place, t, created) };
    }
    case 'TRIGGER': {
      const c: JsonObject = { name: e.name, arguments: e.arguments as JsonObject };
      return { id: e.place.groupId, event: 'TRIGGER', data: frameData(e.place, c, created) };
    }
    case 'BLOCK': {
      const b = e.block;
      const place: BlockPlace = b.type === 'SOURCES' || b.type === 'QUESTIONS' ? { ...b, groupId: '-1' } : b;
      return { id: place.groupId, event: b.type, data: frameData(place, encodeBlockContentV2(b), created) };
    }
  }
}
