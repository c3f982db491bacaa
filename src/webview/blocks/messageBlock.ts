/**
 * MESSAGE blocks. Text is split into chunks (mdChunks.ts) and finished chunks into pages
 * (mdPages.ts). Chunks that closed since the last render are rendered together, once, and their
 * nodes never change again; only the unfinished tail is re-rendered. Work per render is
 * therefore proportional to the new text, and a whole answer costs time linear in its length.
 *
 * Renders happen at most once per animation frame, and less often when they are expensive: the
 * next render waits COST_FACTOR times the last one's cost (at most MAX_WAIT_MS), so however fast
 * text arrives, rendering takes a bounded share of the main thread. Text that arrived faster than
 * one can read (more than EAGER_CHARS before the end at render time) has already scrolled by: its
 * pages are left to the lazy queue, which renders them when they come near the view or when the
 * panel is idle.
 */
import { inFrame } from '../frame';
import { h } from '../dom';
import type { BlockView } from './blockView';
import { MarkdownChunker } from '../../shared/mdChunks';
import { MdPage, PAGE_CHARS, lazyPages } from './mdPages';
import { renderMarkdown } from './markdown';

/** The end of the text rendered at once: a screenful or two of a typical panel. A taller view
 * gets the rest from the lazy queue as soon as it is near the view. */
const EAGER_CHARS = 4 * 1024;
/** Wait this many times the last render's cost before the next one (streaming only). A slow
 * stream renders every frame (its renders cost well under 1 ms); a flood of text is rendered a
 * few times a second, with most of the main thread left for scrolling and typing. */
const COST_FACTOR = 16;
/** ...but never more than this, so a fast stream still moves on screen a few times a second. */
const MAX_WAIT_MS = 250;

export class MessageBlockView implements BlockView {
  readonly el: HTMLDivElement;
  private readonly tailEl: HTMLDivElement;
  private readonly chunker = new MarkdownChunker();
  private closed: string[] = [];
  private closedChars = 0;
  private page: MdPage | undefined;
  private tailDirty = false;
  private finished: boolean;
  private lastCost = 0;
  private lastAt = 0;
  private readonly renderBound = (): void => this.render();

  constructor(text: string, streaming: boolean) {
    this.el = h('div', { class: 'block message markdown' });
    this.tailEl = h('div', { class: 'md-tail' });
    this.el.appendChild(this.tailEl);
    this.finished = !streaming;
    if (streaming) lazyPages.setStreaming(this, true);
    if (text) {
      this.closed = this.chunker.push(text);
      this.tailDirty = true;
      this.render();
    }
  }

  append(text: string): void {
    if (!text) return;
    for (const c of this.chunker.push(text)) this.closed.push(c);
    this.tailDirty = true;
    inFrame(this.renderBound);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.tailDirty || this.closed.length > 0) inFrame(this.renderBound);
    lazyPages.setStreaming(this, false);
  }

  private render(): void {
    const start = performance.now();
    if (!this.finished && start - this.lastAt < Math.min(this.lastCost * COST_FACTOR, MAX_WAIT_MS)) {
      inFrame(this.renderBound);
      return;
    }
    const pending = this.chunker.pending;
    if (this.closed.length > 0) {
      const fresh = this.closed;
      this.closed = [];
      let end = this.closedChars + pending.length;
      for (const c of fresh) end += c.length;
      this.place(fresh, end - EAGER_CHARS);
    }
    if (this.tailDirty) {
      this.tailEl.replaceChildren(renderMarkdown(pending));
      this.tailDirty = false;
    }
    this.lastAt = performance.now();
    this.lastCost = this.lastAt - start;
  }

  /**
   * Lays finished chunks into pages: those ending after `eagerFrom` (a text offset) are rendered
   * now, the ones before it are left pending. Consecutive chunks of one page and one kind are
   * rendered together: chunk boundaries sit between top-level blocks, so rendering them together
   * equals rendering them one by one.
   */
  private place(chunks: string[], eagerFrom: number): void {
    let batch = '';
    let batchEager = false;
    const flush = (): void => {
      if (!batch) return;
      if (!this.page) {
        this.page = new MdPage(!batchEager);
        this.el.insertBefore(this.page.el, this.tailEl);
      }
      if (batchEager) this.page.addRendered(batch);
      else this.page.addPending(batch);
      batch = '';
    };
    for (const c of chunks) {
      if ((this.page?.length ?? 0) + batch.length >= PAGE_CHARS) {
        flush();
        this.page = undefined;
      }
      const eager = this.closedChars + c.length > eagerFrom;
      if (eager !== batchEager) {
        flush();
        batchEager = eager;
      }
      batch += c;
      this.closedChars += c.length;
    }
    flush();
  }
}
