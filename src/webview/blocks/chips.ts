/**
 * SOURCES and QUESTIONS blocks as chips. A source chip asks the host to reveal the data source
 * (Datasets tree, or the workspace file it came from); a question chip asks it in this session.
 */
import { MAX_QUESTION_LENGTH, type SourceRef } from '../../shared/domain';
import { distinctPlainQuestions } from '../../shared/plainQuestion';
import { h } from '../dom';
import { icon } from '../icons';
import type { BlockContext, BlockView } from './blockView';

function chip(label: string, title: string, iconName: 'file' | 'question', onClick: () => void): HTMLLIElement {
  const b = h('button', { class: 'chip', attrs: { type: 'button', title } }, icon(iconName), h('span', { class: 'chip-label' }, label));
  b.addEventListener('click', onClick);
  return h('li', {}, b);
}

export class SourcesView implements BlockView {
  readonly el: HTMLElement;

  constructor(sources: readonly SourceRef[], ctx: BlockContext) {
    const seen = new Set<string>();
    const list = h('ul', { class: 'chips' });
    for (const s of sources) {
      const key = `${s.datasourceId}\u0000${s.source}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const name = s.source || s.datasourceId || 'source';
      list.appendChild(chip(name, `Reveal ${name}`, 'file', () => ctx.host.post({ type: 'revealSource', source: { ...s } })));
    }
    this.el = h('div', { class: 'block sources', attrs: { role: 'group', 'aria-label': 'Sources' } }, h('span', { class: 'chips-label' }, 'Sources'), list);
  }
}

export class QuestionsView implements BlockView {
  readonly el: HTMLElement;
  private readonly buttons: HTMLButtonElement[] = [];

  constructor(questions: readonly string[], ctx: BlockContext) {
    const list = h('ul', { class: 'chips' });
    // Read as plain questions, each once, in full on hover; the chip asks the engine's exact sentence.
    for (const { question, label } of distinctPlainQuestions(questions)) {
      const li = chip(label, `Ask: ${label}`, 'question', () => {
        if (!ctx.isBusy()) ctx.host.post({ type: 'askFollowUp', question: question.slice(0, MAX_QUESTION_LENGTH), fromTurnId: ctx.turnId });
      });
      this.buttons.push(li.firstElementChild as HTMLButtonElement);
      list.appendChild(li);
    }
    this.el = h('div', { class: 'block questions', attrs: { role: 'group', 'aria-label': 'Suggested follow-up questions' } }, h('span', { class: 'chips-label' }, 'Follow-ups'), list);
    this.setBusy(ctx.isBusy());
  }

  setBusy(busy: boolean): void {
    for (const b of this.buttons) b.disabled = busy;
  }
}
