/**
 * The input box at the bottom: Enter sends, Shift+Enter inserts a new line (and Enter while an
 * IME is composing does neither). While an answer runs the box is disabled and a Cancel button
 * takes the send button's place, taking focus along so keyboard users can stop the answer.
 */
import { MAX_QUESTION_LENGTH } from '../shared/domain';
import { button, h } from './dom';
import { icon } from './icons';

export interface ComposerOptions {
  draft: string;
  onSend(question: string): void;
  onCancel(): void;
  onDraft(draft: string): void;
}

const MAX_HEIGHT_PX = 200;

/**
 * What the empty input box says: what is happening while busy; otherwise a first question in a
 * session with no turns yet (there is nothing to follow up on), a follow-up after that.
 */
export function composerPrompt(busy: boolean, busyLabel: string | undefined, emptySession: boolean): string {
  if (busy) return busyLabel ?? 'Answering…';
  return emptySession ? 'Ask a question about your data…' : 'Ask a follow-up question…';
}

export class Composer {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly cancel: HTMLButtonElement;
  private readonly hint: HTMLElement;
  private busy = false;
  private emptySession = true;

  constructor(private readonly opts: ComposerOptions) {
    this.input = h('textarea', {
      class: 'composer-input',
      attrs: {
        rows: '1',
        maxlength: String(MAX_QUESTION_LENGTH),
        placeholder: composerPrompt(false, undefined, true),
        'aria-label': 'Ask a question',
        'aria-describedby': 'composer-hint',
      },
    });
    this.input.value = opts.draft;
    this.send = button({ label: 'Send', icon: icon('send'), iconOnly: true, class: 'primary', onClick: () => this.submit() });
    this.cancel = button({ label: 'Cancel', icon: icon('stop'), class: 'secondary', onClick: () => opts.onCancel() });
    this.cancel.hidden = true;
    this.hint = h('div', { class: 'composer-hint', attrs: { id: 'composer-hint' } }, 'Enter to send, Shift+Enter for a new line');
    this.el = h(
      'footer',
      { class: 'composer' },
      h('div', { class: 'composer-box' }, this.input, h('div', { class: 'composer-actions' }, this.send, this.cancel)),
      this.hint,
    );
    this.input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
      e.preventDefault();
      this.submit();
    });
    this.input.addEventListener('input', () => {
      this.autosize();
      this.syncSend();
      opts.onDraft(this.input.value);
    });
    this.syncSend();
    requestAnimationFrame(() => this.autosize());
  }

  focus(): void {
    if (!this.input.disabled) this.input.focus();
  }

  /**
   * `cancellable`: a running turn exists (busy with no turn yet, e.g. creating a session, cannot be
   * cancelled). `emptySession`: the session has no turn yet.
   */
  setBusy(busy: boolean, cancellable: boolean, label?: string, emptySession = this.emptySession): void {
    const hadFocus = this.el.contains(document.activeElement);
    this.busy = busy;
    this.emptySession = emptySession;
    this.input.disabled = busy;
    this.input.placeholder = composerPrompt(busy, label, emptySession);
    this.input.setAttribute('aria-label', emptySession ? 'Ask a question' : 'Ask a follow-up question');
    this.cancel.hidden = !(busy && cancellable);
    this.send.hidden = busy && cancellable;
    this.syncSend();
    if (hadFocus && busy && !this.cancel.hidden) this.cancel.focus();
    else if (hadFocus && !busy) this.input.focus();
  }

  private syncSend(): void {
    this.send.disabled = this.busy || this.input.value.trim() === '';
  }

  private submit(): void {
    const q = this.input.value.trim();
    if (this.busy || q === '') return;
    this.opts.onSend(q.slice(0, MAX_QUESTION_LENGTH));
    this.input.value = '';
    this.autosize();
    this.syncSend();
    this.opts.onDraft('');
  }

  private autosize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, MAX_HEIGHT_PX)}px`;
  }
}
