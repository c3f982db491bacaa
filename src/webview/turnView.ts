/**
 * One turn: the question, the Analyze steps (collapsible, collapsed once the answer is done),
 * the Respond content, and a status line (answering… with Cancel, cancelled, or the error with
 * Retry). Patches are applied to the model first (applyAnswerPatch) and then forwarded here, so
 * only the groups and blocks a patch names are touched.
 */
import type { AnswerPatch, ImageData, PanelSettings, TableData, Turn } from '../shared/protocol';
import type { BlockContext, BlockView } from './blocks/blockView';
import { plainQuestion } from '../shared/plainQuestion';
import { button, h, withCodeSpans } from './dom';
import { GroupView } from './groupView';
import { icon, spinner } from './icons';

type FileData = { kind: 'table'; data: TableData } | { kind: 'image'; data: ImageData };

export class TurnView {
  readonly el: HTMLElement;
  private readonly stepsSection: HTMLElement;
  private readonly stepsDetails: HTMLDetailsElement;
  private readonly stepsSummary: HTMLElement;
  private readonly stepList: HTMLOListElement;
  private readonly response: HTMLElement;
  private readonly statusLine: HTMLElement;
  private groups: GroupView[] = [];
  private readonly files = new Map<string, FileData>();
  private readonly stepsKey: string;

  constructor(
    readonly turn: Turn,
    private readonly ctx: BlockContext,
    private readonly settings: () => PanelSettings,
  ) {
    this.stepsKey = `${turn.id}:steps`;
    this.stepsSummary = h('summary', { class: 'steps-summary' });
    this.stepList = h('ol', { class: 'step-list' });
    this.stepsDetails = h('details', { class: 'steps-details' }, this.stepsSummary, this.stepList);
    this.stepsSummary.addEventListener('click', () => {
      const willOpen = !this.stepsDetails.open;
      ctx.ui.update((s) => (s.collapsed[this.stepsKey] = !willOpen));
    });
    this.stepsSection = h('section', { class: 'steps', attrs: { 'aria-label': 'Analysis steps' } }, this.stepsDetails);
    this.response = h('div', { class: 'response' });
    this.statusLine = h('div', { class: 'turn-status' });
    this.el = h(
      'article',
      { class: 'turn', attrs: { 'data-turn-id': turn.id, tabindex: '-1', 'aria-label': `Question: ${plainQuestion(turn.question).slice(0, 120)}` } },
      ...(turn.refines ? [refinesLink(turn.refines)] : []),
      questionHeading(turn),
      this.stepsSection,
      this.response,
      this.statusLine,
    );
    turn.answer.groups.forEach((g, i) => this.addGroup(i));
    this.refreshState();
  }

  get streaming(): boolean {
    return this.turn.answer.state === 'streaming';
  }

  /** Forwards an already-applied patch to the views it concerns. */
  applyPatch(patch: AnswerPatch): void {
    const hadGroups = this.groups.length > 0;
    let stepsChanged = false;
    for (const gp of patch.groups ?? []) {
      let view = this.groups[gp.index];
      if (!view) {
        view = this.addGroup(gp.index, false);
        stepsChanged = true;
      } else if (gp.name !== undefined || gp.status !== undefined || gp.errors !== undefined) {
        view.updateHeader();
        stepsChanged = true;
      }
      for (const a of gp.appends ?? []) view.blocks[a.block]?.append?.(a.text);
      for (const b of gp.blocks ?? []) this.attachFile(view.addBlock(b));
      view.syncFocusable();
    }
    if (patch.jobId !== undefined) this.el.setAttribute('data-job-id', patch.jobId);
    if (patch.state !== undefined || patch.error !== undefined || (!hadGroups && this.groups.length > 0)) this.refreshState();
    else if (stepsChanged) this.refreshStepsSummary();
  }

  setFile(fileKey: string, file: FileData): void {
    this.files.set(fileKey, file);
    for (const v of this.blockViews()) if (v.fileKey === fileKey) this.deliver(v, file);
  }

  setBusy(busy: boolean): void {
    for (const v of this.blockViews()) v.setBusy?.(busy);
  }

  private *blockViews(): Iterable<BlockView> {
    for (const g of this.groups) yield* g.blocks;
  }

  private deliver(view: BlockView, file: FileData): void {
    if (file.kind === 'table') view.setTable?.(file.data);
    else view.setImage?.(file.data);
  }

  private attachFile(view: BlockView): void {
    const file = view.fileKey ? this.files.get(view.fileKey) : undefined;
    if (file) this.deliver(view, file);
  }

  private addGroup(index: number, renderBlocks = true): GroupView {
    const model = this.turn.answer.groups[index];
    if (!model) throw new Error(`no group ${index}`);
    // A new group arrives with its blocks already in the model; the patch adds them to the view.
    const view = new GroupView(model, index, this.ctx, () => this.streaming, renderBlocks, () => this.turn.answer.state === 'cancelled');
    this.groups[index] = view;
    if (model.stage === 'Analyze') this.stepList.appendChild(view.el);
    else this.response.appendChild(view.el);
    if (renderBlocks) for (const b of view.blocks) this.attachFile(b);
    return view;
  }

  private refreshStepsSummary(): void {
    const steps = this.turn.answer.groups.filter((g) => g.stage === 'Analyze');
    this.stepsSection.hidden = steps.length === 0;
    if (steps.length === 0) return;
    const unfinished = steps.some((g) => g.status === 'running' || g.status === undefined);
    const running = this.streaming && unfinished;
    // A cancel mid-analysis leaves steps unfinished: stopped, never a green check.
    const stopped = this.turn.answer.state === 'cancelled' && unfinished;
    const failed = steps.filter((g) => g.status === 'error').length;
    const label = running ? 'Analyzing' : stopped ? 'Analysis stopped' : 'Analysis';
    const count = `${steps.length} ${steps.length === 1 ? 'step' : 'steps'}${failed ? `, ${failed} failed` : ''}`;
    this.stepsSummary.replaceChildren(
      running ? spinner('Analyzing') : icon(stopped ? 'stop' : failed ? 'error' : 'check'),
      h('span', { class: 'steps-label' }, label),
      h('span', { class: 'badge' }, count),
      icon('chevron', 'chevron'),
    );
  }

  /** Status line, step headers and the open/closed state after the answer's state changed. */
  private refreshState(): void {
    const a = this.turn.answer;
    this.el.setAttribute('data-state', a.state);
    if (a.jobId) this.el.setAttribute('data-job-id', a.jobId);
    for (const g of this.groups) g.updateHeader();
    this.refreshStepsSummary();
    const userChoice = this.ctx.ui.current.collapsed[this.stepsKey];
    if (userChoice !== undefined) this.stepsDetails.open = !userChoice;
    else this.stepsDetails.open = this.streaming || !this.settings().collapseStepsWhenDone;
    if (!this.streaming) for (const v of this.blockViews()) v.finish?.();
    this.statusLine.replaceChildren(...this.statusContent());
  }

  private statusContent(): Node[] {
    const a = this.turn.answer;
    const turnId = this.turn.id;
    switch (a.state) {
      case 'streaming': {
        const empty = a.groups.length === 0;
        return [
          h('span', { class: 'status-running', attrs: { role: 'status' } }, spinner('Working'), empty ? 'Thinking…' : 'Answering…'),
          button({ label: 'Cancel', icon: icon('stop'), class: 'secondary', onClick: () => this.ctx.host.post({ type: 'cancel', turnId }) }),
        ];
      }
      case 'cancelled': {
        // "The answer above" only when there is one: a cancel before any answer says so plainly.
        const answered = a.groups.some((g) => g.stage !== 'Analyze' && g.blocks.length > 0);
        return [
          h('span', { class: 'status-cancelled' }, icon('stop'), answered ? 'Cancelled. The answer above is incomplete.' : 'Cancelled before an answer arrived.'),
          button({ label: 'Retry', icon: icon('retry'), class: 'secondary', onClick: () => this.ctx.host.post({ type: 'retry', turnId }) }),
        ];
      }
      case 'error': {
        const msg = a.error?.message || 'The answer failed.';
        const code = a.error?.code !== undefined ? ` (code ${a.error.code})` : '';
        return [
          h('span', { class: 'status-error', attrs: { role: 'alert' } }, icon('error'), `${msg}${code}`),
          button({ label: 'Retry', icon: icon('retry'), class: 'secondary', onClick: () => this.ctx.host.post({ type: 'retry', turnId }) }),
        ];
      }
      case 'done':
        return [];
    }
  }
}

/**
 * "Follow-up to: <earlier question>" above a turn asked from an earlier turn's chip; a click
 * brings that turn into view. The full question is the tooltip, the line itself stays one line.
 */
/**
 * The question as asked. One asked from a chip is the engine's sentence (names in backticks, values
 * in quotes): it reads as the chip read, plain.
 */
function questionHeading(turn: Turn): HTMLElement {
  const fromChip = turn.refines !== undefined;
  const text = fromChip ? [plainQuestion(turn.question)] : withCodeSpans(turn.question);
  return h('div', { class: 'question', attrs: { role: 'heading', 'aria-level': '2' } }, h('span', { class: 'sr-only' }, 'Question: '), ...text);
}

/** "Follow-up to: …" with the earlier question as a chip shows it (it may itself be a chip's sentence). */
function refinesLink(refines: NonNullable<Turn['refines']>): HTMLElement {
  const question = plainQuestion(refines.question);
  const link = h('button', { class: 'refines-link', attrs: { type: 'button', title: question } }, h('span', { class: 'refines-label' }, 'Follow-up to: '), h('span', { class: 'refines-question' }, question));
  link.addEventListener('click', () => {
    const target = document.querySelector<HTMLElement>(`.turn[data-turn-id="${CSS.escape(refines.turnId)}"]`);
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
    target.classList.add('flash');
    window.setTimeout(() => target.classList.remove('flash'), 1600);
  });
  return h('div', { class: 'refines' }, icon('question'), link);
}
