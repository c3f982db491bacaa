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

/** Tails shorter than this always render every frame. */
const THROTTLE_FROM = 8 * 1024;
/** Re-render an expensive tail only after this many times its last render cost has passed. */
const COST_FACTOR = 4;

export class MessageBlockView implements BlockView {
  readonly el: HTMLDivElement;
  private readonly tailEl: HTMLDivElement;
  private readonly chunker = new MarkdownChunker();
  private closed: string[] = [];
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
    if (this.closed.length > 0) {
      const frag = document.createDocumentFragment();
      for (const chunk of this.closed) {
        const div = h('div', { class: 'md-chunk' });
        div.appendChild(renderMarkdown(chunk));
        frag.appendChild(div);
      }
      this.closed = [];
      this.el.insertBefore(frag, this.tailEl);
    }
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
