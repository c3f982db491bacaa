/**
 * Streaming patches for the answer panel (see `protocol.ts`).
 *
 * The host keeps one {@link AnswerPatcher} per streaming turn and, once per animation frame,
 * calls `diff(builder.snapshot())`: the result carries only what changed since the last call, so
 * fragments that arrived within one frame are coalesced into one `answerPatch` post. The webview
 * applies it with {@link applyAnswerPatch} and re-renders only the blocks the patch names.
 *
 * Both rely on what `AnswerBuilder` guarantees: groups and blocks are only ever appended, and
 * only MESSAGE text grows. An answer that shrinks (a retry reusing the turn) is not patchable:
 * `diff` says `'resend'` and the host posts the whole turn instead.
 */
import type { Answer, AnswerGroup, Block } from './domain';
import type { AnswerPatch, GroupPatch } from './protocol';

interface SentGroup {
  name: string;
  status: AnswerGroup['status'];
  errors: number | undefined;
  /** Per block: the text length sent for MESSAGE blocks, -1 for blocks that never change. */
  blocks: number[];
}

function cloneBlock(b: Block): Block {
  return { ...b } as Block;
}

/** What the receiver holds of a block: a MESSAGE's text length, -1 for blocks that never change. */
function sentLength(b: Block): number {
  return b.type === 'MESSAGE' ? b.content.length : -1;
}

/** The record of a group as just sent whole. */
function sentGroup(g: AnswerGroup): SentGroup {
  return { name: g.name, status: g.status, errors: g.errors, blocks: g.blocks.map(sentLength) };
}

export class AnswerPatcher {
  private jobId = '';
  private title: string | undefined;
  private state: Answer['state'] = 'streaming';
  private errorMessage: string | undefined;
  private triggers = 0;
  private groups: SentGroup[] = [];

  /** Starts tracking from `answer` as already sent (after posting the whole turn). */
  constructor(answer?: Answer) {
    if (answer) this.reset(answer);
  }

  reset(answer: Answer): void {
    this.jobId = answer.jobId;
    this.title = answer.title;
    this.state = answer.state;
    this.errorMessage = answer.error?.message;
    this.triggers = answer.triggers.length;
    this.groups = answer.groups.map(sentGroup);
  }

  /**
   * What changed since the last call (or construction / reset): a patch, `undefined` when nothing
   * did, or `'resend'` when `answer` is not a continuation of what was sent.
   */
  diff(answer: Answer): AnswerPatch | undefined | 'resend' {
    if (answer.groups.length < this.groups.length || answer.triggers.length < this.triggers) return 'resend';
    const patch: AnswerPatch = {};
    const groups: GroupPatch[] = [];
    for (let gi = 0; gi < answer.groups.length; gi++) {
      const g = answer.groups[gi] as AnswerGroup;
      const sent = this.groups[gi];
      const gp = sent ? this.diffGroup(gi, g, sent) : this.newGroup(gi, g);
      if (gp === 'resend') return 'resend';
      if (gp) groups.push(gp);
    }
    if (groups.length > 0) patch.groups = groups;
    if (answer.jobId !== this.jobId) patch.jobId = this.jobId = answer.jobId;
    if (answer.title !== undefined && answer.title !== this.title) patch.title = this.title = answer.title;
    if (answer.state !== this.state) patch.state = this.state = answer.state;
    if (answer.error && answer.error.message !== this.errorMessage) {
      patch.error = { ...answer.error };
      this.errorMessage = answer.error.message;
    }
    if (answer.triggers.length > this.triggers) {
      patch.triggers = answer.triggers.slice(this.triggers).map((t) => ({ ...t }));
      this.triggers = answer.triggers.length;
    }
    return Object.keys(patch).length > 0 ? patch : undefined;
  }

  private newGroup(index: number, g: AnswerGroup): GroupPatch {
    const gp: GroupPatch = { index, id: g.id, name: g.name, stage: g.stage };
    if (g.status !== undefined) gp.status = g.status;
    if (g.errors !== undefined) gp.errors = g.errors;
    if (g.blocks.length > 0) gp.blocks = g.blocks.map(cloneBlock);
    this.groups[index] = sentGroup(g);
    return gp;
  }

  private diffGroup(index: number, g: AnswerGroup, sent: SentGroup): GroupPatch | undefined | 'resend' {
    if (g.blocks.length < sent.blocks.length) return 'resend';
    const gp: GroupPatch = { index };
    let changed = false;
    if (g.name !== sent.name) {
      gp.name = sent.name = g.name;
      changed = true;
    }
    if (g.status !== undefined && g.status !== sent.status) {
      gp.status = sent.status = g.status;
      changed = true;
    }
    if (g.errors !== undefined && g.errors !== sent.errors) {
      gp.errors = sent.errors = g.errors;
      changed = true;
    }
    for (let bi = 0; bi < sent.blocks.length; bi++) {
      const sentLength = sent.blocks[bi] as number;
      if (sentLength < 0) continue;
      const b = g.blocks[bi] as Block;
      if (b.type !== 'MESSAGE' || b.content.length < sentLength) return 'resend';
      if (b.content.length > sentLength) {
        (gp.appends ??= []).push({ block: bi, text: b.content.slice(sentLength) });
        sent.blocks[bi] = b.content.length;
        changed = true;
      }
    }
    if (g.blocks.length > sent.blocks.length) {
      const added = g.blocks.slice(sent.blocks.length);
      gp.blocks = added.map(cloneBlock);
      for (const b of added) sent.blocks.push(sentLength(b));
      changed = true;
    }
    return changed ? gp : undefined;
  }
}

/** Thrown by {@link applyAnswerPatch} when a patch does not continue the answer it is applied to. */
export class PatchConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchConflictError';
  }
}

/**
 * Applies `patch` to `answer` in place. Validates the whole patch before touching anything, so a
 * conflicting patch leaves `answer` unchanged (the webview then asks the host to resync).
 */
export function applyAnswerPatch(answer: Answer, patch: AnswerPatch): void {
  const groups = patch.groups ?? [];
  let expectedNew = answer.groups.length;
  for (const gp of groups) {
    const existing = answer.groups[gp.index];
    if (!existing) {
      if (gp.index !== expectedNew) throw new PatchConflictError(`group ${gp.index} skips ahead of ${expectedNew}`);
      if (gp.id === undefined || gp.name === undefined || gp.stage === undefined) {
        throw new PatchConflictError(`new group ${gp.index} lacks id, name or stage`);
      }
      if (gp.appends && gp.appends.length > 0) throw new PatchConflictError(`new group ${gp.index} has appends`);
      expectedNew++;
      continue;
    }
    for (const a of gp.appends ?? []) {
      if (existing.blocks[a.block]?.type !== 'MESSAGE') {
        throw new PatchConflictError(`append to group ${gp.index} block ${a.block}, which is not a MESSAGE`);
      }
    }
  }
  for (const gp of groups) {
    let g = answer.groups[gp.index];
    if (!g) {
      g = { id: gp.id as string, name: gp.name as string, stage: gp.stage as AnswerGroup['stage'], blocks: [] };
      answer.groups.push(g);
    } else if (gp.name !== undefined) {
      g.name = gp.name;
    }
    if (gp.status !== undefined) g.status = gp.status;
    if (gp.errors !== undefined) g.errors = gp.errors;
    for (const a of gp.appends ?? []) {
      const b = g.blocks[a.block] as Extract<Block, { type: 'MESSAGE' }>;
      b.content += a.text;
    }
    for (const b of gp.blocks ?? []) g.blocks.push(cloneBlock(b));
  }
  if (patch.jobId !== undefined) answer.jobId = patch.jobId;
  if (patch.title !== undefined) answer.title = patch.title;
  if (patch.state !== undefined) answer.state = patch.state;
  if (patch.error !== undefined) answer.error = { ...patch.error };
  if (patch.triggers) answer.triggers.push(...patch.triggers.map((t) => ({ ...t })));
}
