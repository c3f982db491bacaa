/**
 * The explorer's toolbar: the file (and a sheet switcher for a workbook), the summary toggle,
 * pin rows, the actions (Copy as SQL, Export CSV/Parquet, Ask about this view), and the read's
 * progress while a large file is still being read (first rows only until it ends).
 */
import type { ExplorerAction } from '../../shared/explorerProtocol';
import type { ExploreStatus } from '../../shared/explore';
import { h } from '../dom';
import { xicon, type ExplorerIconName } from './explorerIcons';

export interface ToolbarEvents {
  action(a: ExplorerAction): void;
  switchSheet(sheet: string): void;
  toggleSummary(): void;
  pinRows(): void;
}

function tool(label: string, iconName: ExplorerIconName, cls: string, onClick: () => void, iconOnly = false): HTMLButtonElement {
  const b = h('button', {
    class: `btn secondary x-tool ${cls}${iconOnly ? ' icon-only' : ''}`,
    attrs: { type: 'button', title: label, 'aria-label': iconOnly ? label : undefined },
  }, xicon(iconName));
  if (!iconOnly) b.appendChild(h('span', { class: 'btn-label' }, label));
  b.addEventListener('click', onClick);
  return b;
}

export class Toolbar {
  readonly el: HTMLElement;
  private readonly title = h('span', { class: 'x-file' });
  private readonly sheet = h('select', { class: 'x-input x-sheet', attrs: { 'aria-label': 'Sheet' } });
  private readonly rows = h('span', { class: 'x-rows' });
  readonly summaryBtn: HTMLButtonElement;
  readonly pinRowsBtn: HTMLButtonElement;
  private readonly needReady: HTMLButtonElement[];
  private readonly progress = h('div', { class: 'x-progress', attrs: { role: 'progressbar', 'aria-label': 'Reading the file', 'aria-valuemin': '0', 'aria-valuemax': '100', hidden: '' } },
    h('div', { class: 'x-progress-fill' }));
  private readonly progressText = h('span', { class: 'x-progress-text', attrs: { role: 'status' } });

  constructor(ev: ToolbarEvents) {
    this.sheet.addEventListener('change', () => ev.switchSheet(this.sheet.value));
    this.summaryBtn = tool('Summary', 'summary', 'x-summary-toggle', () => ev.toggleSummary());
    this.summaryBtn.setAttribute('aria-pressed', 'false');
    this.pinRowsBtn = tool('Pin selected rows', 'pin', 'x-pin-rows', () => ev.pinRows(), true);
    const sql = tool('Copy as SQL', 'sql', 'x-copy-sql', () => ev.action('copySql'));
    const csv = tool('Export CSV', 'exportFile', 'x-export-csv', () => ev.action('exportCsv'));
    const parquet = tool('Export Parquet', 'exportFile', 'x-export-parquet', () => ev.action('exportParquet'));
    const ask = tool('Ask about this view', 'ask', 'x-ask', () => ev.action('ask'));
    this.needReady = [this.summaryBtn, csv, parquet];
    this.el = h('div', { class: 'x-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Data Explorer' } },
      h('div', { class: 'x-tool-group' }, this.title, this.sheet, this.rows),
      h('div', { class: 'x-tool-group x-actions' }, this.summaryBtn, this.pinRowsBtn, sql, csv, parquet, ask),
      h('div', { class: 'x-read' }, this.progress, this.progressText));
  }

  setFile(fileName: string, sheets: string[] | undefined, sheet: string | undefined): void {
    this.title.textContent = fileName;
    this.sheet.hidden = !sheets || sheets.length < 2;
    this.sheet.replaceChildren(...(sheets ?? []).map((s) => h('option', { attrs: { value: s } }, s)));
    if (sheet) this.sheet.value = sheet;
  }

  setRows(text: string): void {
    this.rows.textContent = text;
  }

  setStatus(s: ExploreStatus): void {
    const reading = s.state === 'reading';
    this.progress.hidden = !reading;
    for (const b of this.needReady) b.disabled = s.state !== 'ready';
    if (reading) {
      const share = s.done !== undefined && s.total ? Math.min(100, Math.round((s.done / s.total) * 100)) : undefined;
      if (share === undefined) this.progress.removeAttribute('aria-valuenow');
      else this.progress.setAttribute('aria-valuenow', String(share));
      this.progress.classList.toggle('indeterminate', share === undefined);
      (this.progress.firstElementChild as HTMLElement).style.width = `${share ?? 30}%`;
      this.progressText.textContent = `Showing the first rows only: reading the file${share === undefined ? '…' : ` (${share}%)`}. Sort, filters and summary wait until the read ends.`;
    } else this.progressText.textContent = s.state === 'failed' ? `The file could not be read: ${s.error ?? 'unknown error'}` : '';
    this.progressText.classList.toggle('error', s.state === 'failed');
  }

  setSummaryPressed(on: boolean): void {
    this.summaryBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
}
