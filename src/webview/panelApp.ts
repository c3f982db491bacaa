/**
 * The panel: header, notice, conversation, composer and image overlay. Receives validated host
 * messages, keeps the model (turns and their answers) and routes each change to the one view it
 * concerns. Streaming patches never rebuild the conversation: they reach one turn, and inside it
 * the groups and blocks they name.
 */
import { PatchConflictError, applyAnswerPatch } from '../shared/answerPatch';
import {
  DEFAULT_PANEL_SETTINGS, PROTOCOL_VERSION, type HostToWebview, type Notice, type PanelInit, type PanelSettings, type Turn,
} from '../shared/protocol';
import type { BlockContext } from './blocks/blockView';
import { Composer } from './composer';
import { DataBar } from './dataBar';
import { button, h } from './dom';
import { afterFrame, flushFrame } from './frame';
import type { HostChannel } from './hostChannel';
import { icon } from './icons';
import { ImageOverlay } from './overlay';
import { TurnView } from './turnView';
import type { UiStateStore } from './uiState';

/** What an empty conversation says when the host is not busy. */
const EMPTY_TEXT = 'Ask a question about your data to start.';

/** Within this many pixels of the bottom, new content keeps the view scrolled to the bottom. */
const PIN_SLACK_PX = 48;

/** Room above a follow-up's top when the view keeps it in view. */
const ANCHOR_MARGIN_PX = 8;

/** Keys that scroll the conversation. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' ']);

export class PanelApp {
  private readonly titleEl: HTMLElement;
  private readonly noticeEl: HTMLElement;
  private readonly conversation: HTMLElement;
  private readonly emptyEl: HTMLElement;
  private readonly composer: Composer;
  private readonly dataBar = new DataBar(() => this.host.post({ type: 'chooseData' }));
  private readonly overlay = new ImageOverlay();
  private turns = new Map<string, TurnView>();
  private settings: PanelSettings = DEFAULT_PANEL_SETTINGS;
  private resourceRoots: string[] = [];
  private hostBusy = false;
  private busyLabel: string | undefined;
  private pinned = true;
  /**
   * A follow-up asked from a chip: its top ("Follow-up to", the question) is kept in view while its
   * steps, text, table and chart arrive, until the user scrolls (or asks again).
   */
  private anchor: { view: TurnView; resize: ResizeObserver } | undefined;
  private busyShown: boolean | undefined;
  private readonly stickBound = (): void => this.stickToBottom();

  constructor(root: HTMLElement, private readonly host: HostChannel, private readonly ui: UiStateStore) {
    this.titleEl = h('h1', { class: 'panel-title' });
    this.noticeEl = h('div', { class: 'notice' });
    this.noticeEl.hidden = true;
    // Until the host's `init` arrives nothing is known about the conversation: keep saying what
    // the page said while the script loaded, not "Ask a question" over a session still loading.
    this.emptyEl = h('p', { class: 'empty', attrs: { role: 'status' } }, 'Loading the answer panel…');
    this.conversation = h('main', { class: 'conversation', attrs: { 'aria-label': 'Conversation', tabindex: '-1' } }, this.emptyEl);
    this.composer = new Composer({
      draft: ui.current.draft,
      onSend: (question) => {
        this.release();
        this.pinned = true;
        host.post({ type: 'ask', question });
      },
      onCancel: () => {
        const running = this.runningTurn();
        if (running) host.post({ type: 'cancel', turnId: running.turn.id });
      },
      onDraft: (draft) => ui.update((s) => (s.draft = draft)),
    });
    this.composer.el.prepend(this.dataBar.el);
    root.replaceChildren(
      h('header', { class: 'panel-header' }, this.titleEl),
      this.noticeEl,
      this.conversation,
      this.composer.el,
      h('div', { class: 'sr-only', attrs: { id: 'announcer', 'aria-live': 'polite', role: 'status' } }),
      this.overlay.el,
    );
    root.setAttribute('data-state', 'waiting');
    this.conversation.addEventListener('scroll', () => {
      const c = this.conversation;
      // (The browser's own scroll anchoring moves the view too: only the user's input lets go.)
      if (!this.anchor) this.pinned = c.scrollHeight - c.scrollTop - c.clientHeight < PIN_SLACK_PX;
      ui.update((s) => (s.scrollTop = Math.max(0, Math.round(c.scrollTop))));
    }, { passive: true });
    const userScrolls = (): void => this.release();
    for (const type of ['wheel', 'touchmove', 'pointerdown'] as const) this.conversation.addEventListener(type, userScrolls, { passive: true });
    this.conversation.addEventListener('keydown', (e) => {
      if (SCROLL_KEYS.has(e.key)) userScrolls();
    });
    this.installLinkHandling(root);
  }

  /** Applies one validated host message. Throws PatchConflictError when a patch does not apply. */
  handle(m: HostToWebview): void {
    switch (m.type) {
      case 'init':
        this.init(m.state);
        if (m.protocolVersion !== PROTOCOL_VERSION) {
          this.showNotice({ level: 'error', message: 'This panel and the extension are different versions. Close and reopen the panel.' });
        }
        return;
      case 'conversation':
        this.setTitle(m.title);
        if (m.sessionId !== undefined) this.rememberSession(m.sessionId);
        this.setTurns(m.turns);
        return;
      case 'turn':
        // A turn added now is the user's doing (a question, a chip far up the conversation, a
        // command): follow it as a typed question is followed, or a chip click seems to do nothing.
        // One asked from a chip keeps its own top in view instead: the answer's end would carry
        // "Follow-up to" and the question off-screen.
        if (!this.turns.has(m.turn.id) && m.turn.fromHistory !== true) {
          this.release();
          this.pinned = m.turn.refines === undefined;
          this.upsertTurn(m.turn);
          const view = this.turns.get(m.turn.id);
          if (view && m.turn.refines) this.anchorTo(view);
          return;
        }
        this.upsertTurn(m.turn);
        return;
      case 'answerPatch':
        this.patch(m.turnId, m);
        return;
      case 'tableData':
        this.turns.get(m.turnId)?.setFile(m.fileKey, { kind: 'table', data: m.data });
        afterFrame(this.stickBound);
        return;
      case 'imageData':
        this.turns.get(m.turnId)?.setFile(m.fileKey, { kind: 'image', data: m.data });
        afterFrame(this.stickBound);
        return;
      case 'title':
        this.setTitle(m.title);
        return;
      case 'settings':
        this.applySettings(m.settings);
        return;
      case 'theme':
        document.body.setAttribute('data-theme-kind', m.theme);
        return;
      case 'scrollTo':
        this.scrollTo(m.jobId);
        return;
      case 'busy':
        this.hostBusy = m.busy;
        this.busyLabel = m.label;
        this.syncBusy();
        return;
      case 'notice':
        this.showNotice(m.notice);
        return;
      case 'focusInput':
        this.composer.focus();
        return;
      case 'dataScope':
        this.dataBar.set(m.data);
        return;
    }
  }

  private init(s: PanelInit): void {
    this.resourceRoots = [...s.resourceRoots];
    this.applySettings(s.settings);
    document.body.setAttribute('data-theme-kind', s.theme);
    this.setTitle(s.title);
    if (s.sessionId !== undefined) this.rememberSession(s.sessionId);
    this.hostBusy = s.busy;
    this.busyLabel = s.busyLabel;
    this.showNotice(s.notice);
    this.dataBar.set(s.data);
    this.setTurns(s.turns);
    this.conversation.parentElement?.setAttribute('data-state', 'ready');
    if (s.scrollToJobId) this.scrollTo(s.scrollToJobId);
    else if (this.ui.current.scrollTop > 0) {
      this.conversation.scrollTop = this.ui.current.scrollTop;
      const c = this.conversation;
      this.pinned = c.scrollHeight - c.scrollTop - c.clientHeight < PIN_SLACK_PX;
    } else this.stickToBottom();
  }

  private rememberSession(sessionId: string): void {
    if (this.ui.current.sessionId !== sessionId) this.ui.update((st) => (st.sessionId = sessionId));
  }

  private setTurns(turns: readonly Turn[]): void {
    this.release();
    for (const v of this.turns.values()) v.el.remove();
    this.turns = new Map();
    for (const t of turns) this.upsertTurn(t);
    this.emptyEl.hidden = this.turns.size > 0;
    this.syncBusy();
  }

  private context(turnId: string): BlockContext {
    return {
      turnId,
      host: this.host,
      ui: this.ui,
      resourceRoots: () => this.resourceRoots,
      isBusy: () => this.isBusy(),
      enlargeImage: (src, alt, opener, svg) => this.overlay.show(src, alt, opener, svg),
    };
  }

  private upsertTurn(turn: Turn): void {
    const view = new TurnView(turn, this.context(turn.id), () => this.settings);
    const old = this.turns.get(turn.id);
    if (old) old.el.replaceWith(view.el);
    else this.conversation.appendChild(view.el);
    this.turns.set(turn.id, view);
    this.emptyEl.hidden = this.turns.size > 0;
    this.syncBusy();
    afterFrame(this.stickBound);
  }

  private patch(turnId: string, m: Extract<HostToWebview, { type: 'answerPatch' }>): void {
    const view = this.turns.get(turnId);
    if (!view) throw new PatchConflictError(`patch for unknown turn ${turnId}`);
    applyAnswerPatch(view.turn.answer, m.patch);
    view.applyPatch(m.patch);
    if (m.patch.state !== undefined) this.syncBusy();
    afterFrame(this.stickBound);
  }

  private runningTurn(): TurnView | undefined {
    let last: TurnView | undefined;
    for (const v of this.turns.values()) if (v.streaming) last = v;
    return last;
  }

  private isBusy(): boolean {
    return this.hostBusy || this.runningTurn() !== undefined;
  }

  private syncBusy(): void {
    const busy = this.isBusy();
    const running = this.runningTurn();
    this.composer.setBusy(busy, running !== undefined, this.busyLabel, this.turns.size === 0);
    // Changing the data while an answer runs would leave it unclear which data that answer used.
    this.dataBar.setDisabled(busy);
    // Before a conversation is there (the service starting, the history loading), say what is
    // happening: "Ask a question" would claim the session is empty.
    const emptyText = this.hostBusy && this.busyLabel ? this.busyLabel : EMPTY_TEXT;
    if (this.emptyEl.textContent !== emptyText) this.emptyEl.textContent = emptyText;
    if (this.busyShown !== busy) {
      this.busyShown = busy;
      for (const v of this.turns.values()) v.setBusy(busy);
    }
  }

  private setTitle(title: string): void {
    const t = title.trim() || 'Team Data Analysis';
    this.titleEl.textContent = t;
    document.title = t;
  }

  private applySettings(s: PanelSettings): void {
    this.settings = { ...s };
    document.body.classList.toggle('wrap-code', s.wrapCode);
  }

  private showNotice(notice: Notice | undefined): void {
    if (!notice) {
      this.noticeEl.hidden = true;
      this.noticeEl.replaceChildren();
      return;
    }
    const dismiss = button({ label: 'Dismiss', icon: icon('close'), iconOnly: true, onClick: () => this.showNotice(undefined) });
    this.noticeEl.className = `notice notice-${notice.level}`;
    this.noticeEl.setAttribute('role', notice.level === 'error' ? 'alert' : 'status');
    this.noticeEl.replaceChildren(icon(notice.level === 'error' ? 'error' : 'info'), h('span', { class: 'notice-text' }, notice.message), dismiss);
    this.noticeEl.hidden = false;
  }

  private scrollTo(jobId: string): void {
    flushFrame();
    const view = [...this.turns.values()].find((v) => v.turn.answer.jobId === jobId);
    if (!view) return;
    this.release();
    this.pinned = false;
    view.el.scrollIntoView({ block: 'start' });
    view.el.focus({ preventScroll: true });
    view.el.classList.add('flash');
    window.setTimeout(() => view.el.classList.remove('flash'), 1600);
  }

  private stickToBottom(): void {
    if (this.anchor) this.keepAnchorInView();
    else if (this.pinned) this.conversation.scrollTop = this.conversation.scrollHeight;
  }

  private anchorTo(view: TurnView): void {
    // The turn grows (an image decoding, a table laid out) without a message saying so.
    const resize = new ResizeObserver(() => afterFrame(this.stickBound));
    resize.observe(view.el);
    this.anchor = { view, resize };
    afterFrame(this.stickBound);
  }

  private release(): void {
    if (!this.anchor) return;
    this.anchor.resize.disconnect();
    this.anchor = undefined;
    const c = this.conversation;
    this.pinned = c.scrollHeight - c.scrollTop - c.clientHeight < PIN_SLACK_PX;
  }

  /** Scrolls the anchored turn's top up to the view's top, as far as the content below allows. */
  private keepAnchorInView(): void {
    const a = this.anchor;
    if (!a) return;
    if (!a.view.el.isConnected) return this.release();
    const c = this.conversation;
    const offset = a.view.el.getBoundingClientRect().top - c.getBoundingClientRect().top - ANCHOR_MARGIN_PX;
    if (Math.abs(offset) > 1) c.scrollTop += offset;
  }

  /** Answer links carry `data-href` (see markdown.ts); they open through the host, never here. */
  private installLinkHandling(root: HTMLElement): void {
    const open = (target: EventTarget | null, e: Event): void => {
      if (!(target instanceof Element)) return;
      const anchor = target.closest('a');
      if (anchor) e.preventDefault();
      const link = target.closest('[data-href]');
      const url = link?.getAttribute('data-href');
      if (url && /^https?:\/\//i.test(url)) this.host.post({ type: 'openLink', url });
    };
    root.addEventListener('click', (e) => open(e.target, e));
    root.addEventListener('auxclick', (e) => {
      if (e.target instanceof Element && e.target.closest('a')) e.preventDefault();
    });
    root.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target instanceof Element && e.target.matches('[data-href]')) open(e.target, e);
    });
  }
}
