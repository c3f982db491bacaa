/**
 * Pages of a MESSAGE block's finished markdown, and the one queue that renders pages later.
 *
 * A page holds consecutive finished chunks (mdChunks.ts) until it has PAGE_CHARS of source; the
 * split depends only on the text, so a streamed answer and the same answer re-opened end with
 * the same pages and, once rendered, the same DOM.
 *
 * Parsing and sanitizing markdown is the panel's main cost (about 1 ms per KB), so a page that
 * nobody is looking at is not rendered right away: it shows its source as plain text (class
 * md-pending), which costs no parsing and keeps the words there for find-in-page, selection and
 * screen readers. A pending page is rendered when it comes near the view, and otherwise in idle
 * time once no answer is streaming, a few pages per idle period, so a long answer never blocks
 * the panel for long.
 */
import { h } from '../dom';
import { renderMarkdown } from './markdown';

export const PAGE_CHARS = 4096;

export class MdPage {
  readonly el: HTMLDivElement;
  /** Characters of markdown source in the page. */
  length = 0;
  /** The source of a page not rendered yet; undefined once it is. */
  private source: string | undefined;

  /** `pending`: the page starts as source text (its class is set before it is in the document). */
  constructor(pending: boolean) {
    this.el = h('div', { class: pending ? 'md-page md-pending' : 'md-page' });
  }

  /** Adds finished chunks, rendered now. */
  addRendered(source: string): void {
    this.length += source.length;
    if (this.source !== undefined) {
      this.source += source;
      this.render();
    } else this.el.append(renderMarkdown(source));
  }

  /** Adds finished chunks to be rendered later; a page that already shows rendered markdown
   * renders them now, so a page is never half source, half rendered. */
  addPending(source: string): void {
    if (this.source === undefined && this.length > 0) {
      this.addRendered(source);
      return;
    }
    this.length += source.length;
    if (this.source === undefined) {
      this.source = source;
      if (!this.el.classList.contains('md-pending')) this.el.classList.add('md-pending');
      this.el.append(source);
      lazyPages.add(this);
    } else {
      this.source += source;
      this.el.append(source);
    }
  }

  /** Replaces the page's plain source text by its rendered markdown. */
  render(): void {
    if (this.source === undefined) return;
    const frag = renderMarkdown(this.source);
    this.source = undefined;
    this.el.classList.remove('md-pending');
    this.el.replaceChildren(frag);
    lazyPages.rendered(this);
  }
}

/** Idle work per idle period: below the 50 ms that makes a long task, with room for input. */
const IDLE_SLICE_MS = 12;
/** While an answer streams, idle rendering looks again this often. */
const STREAMING_POLL_MS = 500;
/** Pending pages within this distance of the view render before they scroll into it. */
const NEAR_VIEW = '100% 0px';

/**
 * The pending pages of the whole panel. Idle rendering waits while any answer streams, so the
 * stream keeps the main thread; pages near the view render at once either way.
 */
class LazyPages {
  /** In the order they were added; idle time renders from the end (the newest text, where the
   * view usually is). */
  private readonly pages: MdPage[] = [];
  private readonly byEl = new WeakMap<Element, MdPage>();
  private readonly streaming = new Set<{ readonly el: Element }>();
  private observer: IntersectionObserver | undefined;
  private idleScheduled = false;

  add(page: MdPage): void {
    this.pages.push(page);
    this.byEl.set(page.el, page);
    // The conversation is what scrolls: with the viewport as root the margin would be clipped
    // away by the conversation's own edges, and pages would render only once on screen.
    this.observer ??= new IntersectionObserver((entries) => this.nearView(entries), { root: page.el.closest('.conversation') ?? document.querySelector('.conversation'), rootMargin: NEAR_VIEW });
    this.observer.observe(page.el);
    this.scheduleIdle();
  }

  rendered(page: MdPage): void {
    this.observer?.unobserve(page.el);
  }

  /** A streaming block holds back idle rendering until it finishes (or leaves the document). */
  setStreaming(block: { readonly el: Element }, streaming: boolean): void {
    if (streaming) this.streaming.add(block);
    else {
      this.streaming.delete(block);
      this.scheduleIdle();
    }
  }

  private nearView(entries: IntersectionObserverEntry[]): void {
    for (const e of entries) if (e.isIntersecting) this.byEl.get(e.target)?.render();
  }

  /** Whether an answer in the document streams. Only asked in idle callbacks: a block is built
   * before its turn is inserted, and both happen in one task. */
  private isStreaming(): boolean {
    for (const b of this.streaming) if (!b.el.isConnected) this.streaming.delete(b);
    return this.streaming.size > 0;
  }

  private scheduleIdle(): void {
    if (this.idleScheduled || this.pages.length === 0) return;
    this.idleScheduled = true;
    const run = (deadline?: IdleDeadline): void => {
      this.idleScheduled = false;
      this.idle(deadline);
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run);
    else setTimeout(run, 50);
  }

  private idle(deadline: IdleDeadline | undefined): void {
    // A finishing block schedules this again (setStreaming); the slow poll covers a streaming
    // turn that was replaced rather than finished.
    if (this.isStreaming()) {
      setTimeout(() => this.scheduleIdle(), STREAMING_POLL_MS);
      return;
    }
    const until = performance.now() + IDLE_SLICE_MS;
    while (this.pages.length > 0 && performance.now() < until && (deadline?.timeRemaining() ?? 1) > 0) {
      const page = this.pages.pop() as MdPage;
      // A page whose turn was replaced or removed is dropped, not rendered.
      if (page.el.isConnected) page.render();
      else this.rendered(page);
    }
    this.scheduleIdle();
  }
}

export const lazyPages = new LazyPages();
