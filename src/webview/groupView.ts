/**
 * One answer group: an Analyze step (a row with its status and, when it has blocks, a
 * collapsible body) or a Respond group (its blocks, in order). Owns the block views so patches
 * reach exactly the block they name.
 */
import type { AnswerGroup, Block } from '../shared/domain';
import type { BlockContext, BlockView } from './blocks/blockView';
import { createBlockView } from './blocks/createBlock';
import { append, h, withCodeSpans } from './dom';
import { icon, spinner } from './icons';

export class GroupView {
  readonly el: HTMLElement;
  readonly blocks: BlockView[] = [];
  private readonly body: HTMLElement;
  private readonly statusEl: HTMLSpanElement | undefined;
  private readonly nameEl: HTMLSpanElement | undefined;
  private readonly details: HTMLDetailsElement | undefined;
  private readonly summary: HTMLElement | undefined;

  constructor(
    private readonly group: AnswerGroup,
    readonly index: number,
    private readonly ctx: BlockContext,
    private readonly streaming: () => boolean,
    renderBlocks = true,
    /** Whether the answer was cancelled: its unfinished steps show as stopped, not done. */
    private readonly cancelled: () => boolean = () => false,
  ) {
    if (group.stage === 'Analyze') {
      this.statusEl = h('span', { class: 'step-status' });
      this.nameEl = h('span', { class: 'step-name' });
      this.body = h('div', { class: 'step-body' });
      this.summary = h('summary', { class: 'step-summary' }, this.statusEl, this.nameEl, icon('chevron', 'chevron'));
      this.details = h('details', { class: 'step-details' }, this.summary, this.body);
      const key = `${ctx.turnId}:step:${index}`;
      this.details.open = ctx.ui.current.collapsed[key] === false;
      // A click (or Enter/Space, which click the summary) is the user's choice; remember it.
      this.summary.addEventListener('click', () => {
        const willOpen = !(this.details as HTMLDetailsElement).open;
        ctx.ui.update((s) => (s.collapsed[key] = !willOpen));
      });
      this.el = h('li', { class: 'step' }, this.details);
      this.updateHeader();
    } else {
      this.body = h('div', { class: 'group-body' });
      this.el = h('section', { class: 'group', attrs: { 'aria-label': group.name || 'Answer' } }, this.body);
    }
    // A group created by a patch gets its blocks from the patch, not from the (already updated) model.
    if (renderBlocks) for (const b of group.blocks) this.addBlock(b);
    this.syncFocusable();
  }

  /** Re-reads name and status from the model after a patch changed them. */
  updateHeader(): void {
    if (!this.statusEl || !this.nameEl || !this.details) return;
    const g = this.group;
    const stopped = this.cancelled() && (g.status === undefined || g.status === 'running');
    const status = stopped ? 'stopped' : g.status ?? (this.streaming() ? 'running' : 'done');
    this.el.setAttribute('data-status', status);
    this.nameEl.replaceChildren();
    append(this.nameEl, ...withCodeSpans(g.name || `Step ${this.index + 1}`));
    const retried = g.errors && status !== 'error' ? ` (retried after ${g.errors} ${g.errors === 1 ? 'error' : 'errors'})` : '';
    if (retried) this.nameEl.append(h('span', { class: 'step-note' }, retried));
    const label = status === 'running' ? 'Running' : status === 'error' ? 'Failed' : status === 'stopped' ? 'Stopped' : 'Done';
    this.statusEl.replaceChildren(status === 'running' ? spinner(label) : icon(status === 'error' ? 'error' : status === 'stopped' ? 'stop' : 'check'));
    this.statusEl.setAttribute('title', label);
    if (status !== 'running') this.statusEl.append(h('span', { class: 'sr-only' }, `${label}: `));
  }

  addBlock(block: Block): BlockView {
    const view = createBlockView(block, this.ctx, this.streaming());
    this.blocks.push(view);
    this.body.appendChild(view.el);
    if (this.details && this.summary) {
      this.details.classList.add('has-blocks');
      this.summary.removeAttribute('tabindex');
    }
    return view;
  }

  /** Steps without blocks have nothing to expand, so they are not a tab stop. */
  syncFocusable(): void {
    if (this.summary && this.blocks.length === 0) this.summary.setAttribute('tabindex', '-1');
  }
}
