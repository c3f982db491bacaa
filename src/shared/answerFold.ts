/**
 * Folds job events into the one {@link Answer} shape. The streamed and the non-stream response go
 * through the same fold, so the panel, history, the CLI and the tests see identical answers.
 *
 * The fold tolerates the real service's quirks (service-notes.md): TABLE/IMAGE re-sent in the
 * Respond group are kept once (keyed by URL without its query, as presigned URLs differ only
 * there), TASK `error` then `running` is a retry, MESSAGE fragments concatenate only until another
 * block interrupts them (the non-stream response interleaves text with tables the same way).
 */
import type { Answer, AnswerGroup, Block, JobEvent, JobResult, Stage } from './domain';

/**
 * A shallow copy of a block as a plain literal. Spreads cost more than the rest of the fold per
 * streamed fragment in profiles (bench/foldBench.ts), and the shape is fixed, so copy it by hand.
 */
function copyBlock(b: Block): Block {
  return (b.groupName === undefined
    ? { groupId: b.groupId, stage: b.stage, type: b.type, content: b.content }
    : { groupId: b.groupId, stage: b.stage, groupName: b.groupName, type: b.type, content: b.content }) as Block;
}

function copyGroup(g: AnswerGroup): AnswerGroup {
  const out: AnswerGroup = { id: g.id, name: g.name, stage: g.stage, blocks: g.blocks.map(copyBlock) };
  if (g.status !== undefined) out.status = g.status;
  if (g.errors !== undefined) out.errors = g.errors;
  return out;
}

/**
 * The key of a TABLE/IMAGE file: its type and URL without the query (presigned URLs of one file
 * differ only in the query). The fold keeps one block per key; the panel and the CLI use the same.
 */
export function fileKeyOf(block: { type: 'TABLE' | 'IMAGE'; content: { url: string } }): string {
  const url = block.content.url;
  const q = url.indexOf('?');
  return `${block.type}:${q < 0 ? url : url.slice(0, q)}`;
}

/**
 * Incremental fold. `push` is O(1) amortised per event, so a 100k-fragment stream stays linear;
 * `snapshot` copies, so callers never observe later mutation.
 */
export class AnswerBuilder {
  private jobId = '';
  private title: string | undefined;
  private state: Answer['state'] = 'streaming';
  private error: Answer['error'];
  private readonly groups: AnswerGroup[] = [];
  private readonly byKey = new Map<string, AnswerGroup>();
  private readonly seenFiles = new Set<string>();
  private readonly triggers: Answer['triggers'] = [];
  private lastGroup: AnswerGroup | undefined;
  /**
   * Fragments not yet added to the MESSAGE block they extend. Appending each fragment at once
   * kept every fragment string (and a concatenation node per fragment) alive until the answer
   * was read, which the GC paid for on long streams; joined in batches, fragments die young.
   */
  private pending: { block: Block & { type: 'MESSAGE' }; parts: string[] } | undefined;
  /** Unknown event kinds seen, for a debug log; never affects the answer. */
  readonly unknown: Array<{ event: string; data: string }> = [];

  /**
   * Folds one event. Returns false when the event changed nothing (an unknown kind, or a
   * TABLE/IMAGE the answer already holds), so a live view can skip it exactly as the fold does.
   */
  push(e: JobEvent): boolean {
    switch (e.kind) {
      case 'JOB_ID':
        this.jobId = e.jobId;
        return true;
      case 'TITLE_GENERATION':
        this.title = e.title;
        return true;
      case 'TASK': {
        const g = this.group(e.place.groupId, e.task.stage, e.task.name || e.place.groupName || '');
        if (!g.name && e.task.name) g.name = e.task.name;
        g.status = e.task.status;
        if (e.task.status === 'error') g.errors = (g.errors ?? 0) + 1;
        return true;
      }
      case 'BLOCK':
        return this.addBlock(e.block);
      case 'TRIGGER':
        this.triggers.push({ name: e.name, arguments: e.arguments });
        return true;
      case 'ERROR':
        this.fail(e.message, e.code);
        return true;
      case 'END':
        if (!e.ok) this.fail('the service ended the answer with an error');
        else if (this.state === 'streaming') this.state = 'done';
        return true;
      case 'UNKNOWN':
        this.unknown.push({ event: e.event, data: e.data });
        return false;
    }
  }

  /** Marks the answer failed (first error wins, so the root cause is what users see). */
  fail(message: string, code?: number): void {
    if (this.state !== 'error' && this.state !== 'cancelled') {
      this.state = 'error';
      this.error = code === undefined ? { message } : { message, code };
    }
  }

  cancel(): void {
    if (this.state === 'streaming') this.state = 'cancelled';
  }

  get finished(): boolean {
    return this.state !== 'streaming';
  }

  snapshot(): Answer {
    this.flushPending();
    const a: Answer = {
      jobId: this.jobId,
      state: this.state,
      groups: this.groups.map(copyGroup),
      triggers: this.triggers.map((t) => ({ ...t })),
    };
    if (this.title !== undefined) a.title = this.title;
    if (this.error !== undefined) a.error = { ...this.error };
    return a;
  }

  private group(id: string, stage: Stage, name: string): AnswerGroup {
    // Consecutive events almost always hit the same group; skip building the map key for them.
    const last = this.lastGroup;
    if (last !== undefined && last.id === id && last.stage === stage) return last;
    const key = `${stage}\u0000${id}`;
    let g = this.byKey.get(key);
    if (!g) {
      g = { id, name, stage, blocks: [] };
      this.byKey.set(key, g);
      this.groups.push(g);
    }
    this.lastGroup = g;
    return g;
  }

  private addBlock(block: Block): boolean {
    if (block.type === 'TABLE' || block.type === 'IMAGE') {
      const key = fileKeyOf(block);
      if (this.seenFiles.has(key)) return false;
      this.seenFiles.add(key);
    }
    const g = this.group(block.groupId, block.stage, block.groupName ?? '');
    if (!g.name && block.groupName) g.name = block.groupName;
    // An empty MESSAGE says only that its group exists (a step marker, see historyBlocks): the
    // group is kept, no empty block; text that follows starts a block of its own.
    if (block.type === 'MESSAGE' && block.content === '') return true;
    const last = g.blocks[g.blocks.length - 1];
    if (block.type === 'MESSAGE' && last?.type === 'MESSAGE') {
      const p = this.pending;
      if (p !== undefined && p.block === last) {
        p.parts.push(block.content);
        if (p.parts.length >= PENDING_BATCH) this.flushPending();
      } else {
        this.flushPending();
        this.pending = { block: last, parts: [block.content] };
      }
      return true;
    }
    g.blocks.push(copyBlock(block));
    return true;
  }

  private flushPending(): void {
    const p = this.pending;
    if (p === undefined) return;
    p.block.content += p.parts.join('');
    this.pending = undefined;
  }
}

/** Fragments joined at a time (see `pending`). */
const PENDING_BATCH = 64;

/** The pure fold: events in, answer out. */
export function foldEvents(events: Iterable<JobEvent>): Answer {
  const b = new AnswerBuilder();
  for (const e of events) b.push(e);
  return b.snapshot();
}

/** The answer's blocks in the contract's non-stream order. */
export function answerBlocks(answer: Answer): Block[] {
  return answer.groups.flatMap((g) => g.blocks.map((b) => ({ ...b })));
}

/**
 * The answer's blocks as a history record keeps them: {@link answerBlocks}, plus an empty MESSAGE
 * in each Analyze step that has no block of its own ("Read the question as: …"). A history record
 * holds blocks only, so such a step was lost on reload ("3 steps" became "1 step"); the fold turns
 * the marker back into the step alone.
 */
export function historyBlocks(answer: Answer): Block[] {
  return answer.groups.flatMap((g): Block[] => {
    if (g.blocks.length > 0) return g.blocks.map((b) => ({ ...b }));
    if (g.stage !== 'Analyze') return [];
    return [{ groupId: g.id, stage: g.stage, groupName: g.name, type: 'MESSAGE', content: '' }];
  });
}

/** A non-stream result (or a history record) as an Answer, through the same fold. */
export function answerFromResult(result: JobResult): Answer {
  return foldEvents(resultEvents(result));
}

/** A non-stream result as the events a stream of it would carry (the same fold then applies). */
export function resultEvents(result: JobResult): JobEvent[] {
  return [{ kind: 'JOB_ID', jobId: result.jobId }, ...result.blocks.map((block): JobEvent => ({ kind: 'BLOCK', block })), { kind: 'END', ok: true }];
}
