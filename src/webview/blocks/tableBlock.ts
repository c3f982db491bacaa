/**
 * TABLE blocks. The webview never downloads the file: the host fetches it before `expiredAt`,
 * caches it, and posts the CSV text (tableData). Until then the block says what is happening;
 * when the link expired with no cached copy, it says so instead of showing an empty grid.
 */
import type { FileRef } from '../../shared/domain';
import { parseCsv } from '../../shared/csv';
import { fileKeyOf, type TableData } from '../../shared/protocol';
import type { ShownCell } from '../../shared/cellFormat';
import { announce, button, h } from '../dom';
import { icon } from '../icons';
import type { BlockContext, BlockView } from './blockView';
import { TableGrid, MAX_COLUMNS } from './tableGrid';
import { toTsv } from './tsv';

const numberFormat = new Intl.NumberFormat();

export class TableBlockView implements BlockView {
  readonly el: HTMLElement;
  readonly fileKey: string;
  private readonly body: HTMLDivElement;
  private readonly meta: HTMLSpanElement;
  private readonly actions: HTMLButtonElement[];
  private grid: TableGrid | undefined;
  private header: string[] = [];
  private rows: string[][] = [];

  constructor(private readonly content: FileRef, private readonly ctx: BlockContext) {
    this.fileKey = fileKeyOf({ type: 'TABLE', content });
    const name = content.name || 'table.csv';
    const post = (type: 'openTableAsCsv' | 'saveTable' | 'exploreTable'): void => ctx.host.post({ type, turnId: ctx.turnId, fileKey: this.fileKey });
    this.actions = [
      button({ label: 'Open as CSV', icon: icon('openEditor'), iconOnly: true, onClick: () => post('openTableAsCsv') }),
      // The whole table in the Team Data Explorer: sort, filters, summary, and questions about the view.
      button({ label: 'Explore', icon: icon('table'), iconOnly: true, onClick: () => post('exploreTable') }),
      button({ label: 'Save to Workspace…', icon: icon('save'), iconOnly: true, onClick: () => post('saveTable') }),
      // Copies the exact values, every digit the file has: what is pasted must never be a rounded number that looks exact.
      button({ label: 'Copy with Headers', icon: icon('copy'), iconOnly: true, onClick: () => this.copy(false) }),
      // Numbers as the grid shows them (separators, the column's decimals), for a report; the label says so.
      button({ label: 'Copy as Shown with Headers', icon: icon('copyShown'), iconOnly: true, class: 'copy-shown', onClick: () => this.copy(true) }),
    ];
    this.meta = h('span', { class: 'block-meta' });
    this.body = h('div', { class: 'table-body' });
    this.el = h(
      'div',
      { class: 'block table-block', attrs: { role: 'group', 'aria-label': `Table ${name}` } },
      h(
        'div',
        { class: 'block-header' },
        icon('table'),
        h('span', { class: 'block-title', attrs: { title: name } }, name),
        this.meta,
        h('div', { class: 'block-toolbar', attrs: { role: 'toolbar', 'aria-label': `${name} actions` } }, ...this.actions),
      ),
      this.body,
    );
    this.setTable({ status: 'loading' });
  }

  setTable(data: TableData): void {
    this.grid = undefined;
    this.rows = [];
    for (const b of this.actions) b.disabled = data.status !== 'ready';
    switch (data.status) {
      case 'loading':
        this.meta.textContent = '';
        this.body.replaceChildren(h('p', { class: 'block-note', attrs: { role: 'status' } }, 'Downloading the table…'));
        return;
      case 'expired':
        this.meta.textContent = '';
        this.body.replaceChildren(
          h('p', { class: 'block-note expired' }, icon('info'), 'The link to this table has expired and no copy was saved, so it cannot be shown. Ask again to regenerate it.'),
        );
        return;
      case 'error':
        this.meta.textContent = '';
        this.body.replaceChildren(h('p', { class: 'block-note error' }, icon('error'), `The table could not be loaded: ${data.message}`));
        return;
      case 'ready':
        this.showGrid(data.csv, data.truncated === true);
    }
  }

  private showGrid(csv: string, truncated: boolean): void {
    const all = parseCsv(csv);
    this.header = all[0] ?? [];
    this.rows = all.length > 1 ? all.slice(1) : [];
    const columns = this.header.length;
    const sortKey = `${this.ctx.turnId}|${this.fileKey}`;
    this.grid = new TableGrid(this.header, this.rows, {
      label: this.content.name || 'table',
      sort: this.ctx.ui.current.tableSort[sortKey],
      onSort: (sort) =>
        this.ctx.ui.update((s) => {
          if (sort) s.tableSort[sortKey] = sort;
          else delete s.tableSort[sortKey];
        }),
    });
    const parts = [`${numberFormat.format(this.rows.length)} ${this.rows.length === 1 ? 'row' : 'rows'}`, `${columns} ${columns === 1 ? 'column' : 'columns'}`];
    if (columns > MAX_COLUMNS) parts.push(`first ${MAX_COLUMNS} shown`);
    if (truncated) parts.push('truncated');
    this.meta.textContent = parts.join(' · ');
    this.body.replaceChildren(this.grid.el);
  }

  private copy(asShown: boolean): void {
    const grid = this.grid;
    if (!grid) return;
    const tsv = toTsv(this.header, this.rows, grid.displayOrder(), asShown ? (row, c) => shownForCopy(grid.show(row, c)) : undefined);
    this.ctx.host.post({ type: 'copyTable', turnId: this.ctx.turnId, fileKey: this.fileKey, tsv });
    announce(`Copied ${numberFormat.format(this.rows.length)} rows with headers, ${asShown ? 'numbers rounded as shown' : 'exact values'}`);
  }
}

/** A cell as "Copy as Shown" copies it: a missing value stays empty, as in the file. */
function shownForCopy(cell: ShownCell): string {
  return cell.missing ? '' : cell.text;
}
