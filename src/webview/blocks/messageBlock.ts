/**
 * MESSAGE blocks. Text is split into chunks (mdChunks.ts). Chunks that closed since the last
 * frame are rendered together, once, and their nodes never change again; only the unfinished
 * tail is re-rendered, at most once per animation frame. A tail that is expensive to render (one
 * huge paragraph or code fence) is rendered less often, in proportion to its cost, so it takes a
 * bounded share of the main thread. Work per frame is therefore proportional to the new text,
 * and a whole answer costs time linear in its length.
 *
 * Finished nodes are laid into pages of a fixed number of elements: a browser re-lays out a
 * block by walking its children, and a flat list of thousands of paragraphs would make every
 * frame's layout grow with the answer. Pages depend only on the sequence of nodes, not on how
 * the text arrived, so a streamed answer ends with the same DOM as one rendered at once.
 */
import { inFrame } from '../frame';
import { h } from '../dom';
import type { BlockView } from './blockView';
import { MarkdownChunker } from './mdChunks';
import { renderMarkdown } from './markdown';

const ELEMENTS_PER_PAGE = 64;
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
  private pageElements = 0;
  private tailDirty = false;
  private finished: boolean;
  private lastTailCost = 0;
  private lastTailAt = 0;
  private readonly renderBound = (): void => this.render();

  constructor(text: string, streaming: boolean) {
    this.el = h('div', { class: 'block message markdown' });
    this.tailEl = h('div', { class: 'md-tail' });
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
    for (const c of this.chunker.push(text)) this.closed.push(c);
    this.tailDirty = true;
    inFrame(this.renderBound);
  }

  finish(): void {
    this.finished = true;
    if (this.tailDirty) inFrame(this.renderBound);
  }

  private render(): void {
    if (this.closed.length > 0) {
      // One parse for everything that closed since the last frame: chunk boundaries sit between
      // top-level blocks, so rendering them together equals rendering them one by one.
      const frag = renderMarkdown(this.closed.join(''));
      this.closed = [];
      this.appendToPages(frag);
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

  private appendToPages(frag: DocumentFragment): void {
    for (let node = frag.firstChild; node; node = frag.firstChild) {
      if (!this.page || this.pageElements >= ELEMENTS_PER_PAGE) {
        this.page = h('div', { class: 'md-page' });
        this.pageElements = 0;
        this.el.insertBefore(this.page, this.tailEl);
      }
      this.page.appendChild(node);
      if (node.nodeType === Node.ELEMENT_NODE) this.pageElements++;
    }
  }
}
