/**
 * MESSAGE blocks. Text is split into chunks (mdChunks.ts); closed chunks are rendered once and
 * never touched again, and only the unfinished tail is re-rendered, at most once per animation
 * frame. A tail that is expensive to render (one huge paragraph or code fence) is rendered less
 * often, in proportion to its cost, so it takes a bounded share of the main thread.
 */
import { inFrame } from '../frame';
import { h } from '../dom';
import type { BlockView } from './blockView';
import { MarkdownChunker } from './mdChunks';
import { renderMarkdown } from './markdown';

/**
 * Finished chunks are grouped into pages of this many, so the message element has few children:
 * a browser re-lays out a block by walking its children, and a flat list of thousands of chunks
 * would make every frame's layout grow with the answer.
 */
const CHUNKS_PER_PAGE = 48;
/** Tails shorter than this always render every frame. */
const THROTTLE_FROM = 8 * 1024;
/** Re-render an expensive tail only after this many times its last render cost has passed. */
const COST_FACTOR = 4;

export class MessageBlockView implements BlockView {
  readonly el: HTMLDivElement;
  private readonly tailEl: HTMLDivElement;
  private readonly chunker = new MarkdownChunker();
  private closed: string[] = [];
  private page: HTMLDivElement | undefined;
  private pageChunks = 0;
  private tailDirty = false;
  private finished: boolean;
  private lastTailCost = 0;
  private lastTailAt = 0;
  private readonly renderBound = (): void => this.render();

  constructor(text: string, streaming: boolean) {
    this.el = h('div', { class: 'block message markdown' });
    this.tailEl = h('div', { class: 'md-chunk md-tail' });
    this.el.appendChild(this.tailEl);
    this.finished = !streaming;
    if (text) {
      this.closed = this.chunker.push(text);
      this.tailDirty = true;
      this.render();
    }
  }

  append(text: string): void {
    if (!text) return;
    const closed = this.chunker.push(text);
    for (const c of closed) this.closed.push(c);
    this.tailDirty = true;
    inFrame(this.renderBound);
  }

  finish(): void {
    this.finished = true;
    if (this.tailDirty) inFrame(this.renderBound);
  }

  private render(): void {
    for (const chunk of this.closed) {
      if (!this.page || this.pageChunks >= CHUNKS_PER_PAGE) {
        this.page = h('div', { class: 'md-page' });
        this.pageChunks = 0;
        this.el.insertBefore(this.page, this.tailEl);
      }
      const div = h('div', { class: 'md-chunk' });
      div.appendChild(renderMarkdown(chunk));
      this.page.appendChild(div);
      this.pageChunks++;
    }
    this.closed = [];
    if (!this.tailDirty) return;
    const pending = this.chunker.pending;
    const now = performance.now();
    if (!this.finished && pending.length > THROTTLE_FROM && now - this.lastTailAt < this.lastTailCost * COST_FACTOR) {
      inFrame(this.renderBound);
      return;
    }
    this.tailEl.replaceChildren(renderMarkdown(pending));
    this.tailDirty = false;
    this.lastTailAt = performance.now();
    this.lastTailCost = this.lastTailAt - now;
  }
}
