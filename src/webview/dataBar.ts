/**
 * The data selector above the input box: which dataset and files the next question uses, and a
 * button to change them (the host asks with VS Code's own pickers). With nothing selected it says
 * so and offers to choose, instead of letting a question fail for want of data.
 */
import type { DataScopeView } from '../shared/protocol';
import { button, h } from './dom';
import { icon } from './icons';

/** At most this many file names are listed; the rest are counted. */
const LISTED_FILES = 3;

export function describeData(data: DataScopeView | undefined): { text: string; full: string; empty: boolean } {
  if (!data) return { text: 'Looking up the data…', full: '', empty: false };
  if (!data.dataset) return { text: 'No data selected: questions are answered without your files', full: '', empty: true };
  const files = data.allFiles
    ? data.files.length === 1 ? (data.files[0] as string) : `all ${data.files.length} files`
    : data.files.length <= LISTED_FILES
      ? data.files.join(', ')
      : `${data.files.slice(0, LISTED_FILES).join(', ')} and ${data.files.length - LISTED_FILES} more`;
  const text = files ? `${data.dataset} · ${files}` : data.dataset;
  return { text, full: `${data.dataset}: ${data.files.join(', ')}`, empty: false };
}

export class DataBar {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private readonly change: HTMLButtonElement;

  constructor(onChoose: () => void) {
    this.label = h('span', { class: 'data-bar-label' });
    this.change = button({ label: 'Change…', class: 'link-button', onClick: () => onChoose() });
    this.el = h('div', { class: 'data-bar', attrs: { role: 'group', 'aria-label': 'Data for the next question' } },
      icon('table'), h('span', { class: 'data-bar-caption' }, 'Data:'), this.label, this.change);
    this.set(undefined);
  }

  set(data: DataScopeView | undefined): void {
    const d = describeData(data);
    this.label.textContent = d.text;
    this.label.title = d.full;
    this.el.classList.toggle('empty', d.empty);
    const label = d.empty ? 'Choose Data…' : 'Change…';
    const span = this.change.querySelector('.btn-label');
    if (span) span.textContent = label;
    this.change.title = d.empty ? 'Choose the dataset and files to ask about' : 'Choose other data for the next questions';
    this.change.setAttribute('aria-label', d.empty ? 'Choose data to ask about' : 'Change the data for the next questions');
  }

  setDisabled(disabled: boolean): void {
    this.change.disabled = disabled;
  }
}
