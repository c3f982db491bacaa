/**
 * v2 wire spelling of answer blocks and stream events: `group_id`, `group_name`, `expires_at`,
 * snake_case SOURCES items. Decoding needs nothing of its own: the v1 decoders already accept both
 * spellings (and `expired_at`, which the v2 streaming docs use), so a v2 stream folds into exactly
 * the Answer a v1 stream gives. Only the writing direction differs.
 */
import { decodeBlocks, decodeEvent, encodeBlockContentWith, encodeEventAs, type EventSpelling, type SseFrame } from './blockCodecV1';
import type { Block, FileRef, JobEvent, SourceRef } from './domain';
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
  return encodeBlockContentWith(block, encodeFileRef, encodeSource);
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

const V2_SPELLING: EventSpelling = { groupId: 'group_id', groupName: 'group_name', content: encodeBlockContentV2, nullParent: true };

/** Encodes an event as the v2 service frames it (SOURCES and QUESTIONS with group id -1). */
export function encodeEventV2(e: JobEvent, created: number): SseFrame | undefined {
  return encodeEventAs(e, created, V2_SPELLING);
}
