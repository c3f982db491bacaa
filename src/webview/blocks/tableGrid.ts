/**
 * A virtualized, sortable grid for TABLE blocks. Only the rows in view (plus a small overscan)
 * exist in the DOM, recycled from a fixed pool as the user scrolls, so 100k rows cost the same
 * DOM as 40. Rows have a fixed height, which is what makes "row at scrollTop" a division.
 * The header is sticky inside the scroll container, so it stays visible both ways.
 */
import { announce, h } from '../dom';
import { inFrame } from '../frame';
import { icon } from '../icons';
import { columnFormat, isMissingCell, MISSING_CELL, profileFigureStyle, profileLayout, ROUNDED_MARK, showCell, type ProfileLayout, type ShownCell } from '../../shared/cellFormat';
import type { NumberStyle } from '../../shared/numberFormat';
import { isNumericColumn, sortOrder } from './tableSort';

/** Must match `.grid-row { height }` in the stylesheet. */
export const ROW_HEIGHT = 24;
const OVERSCAN = 6;
/** Column widths come from the header and this many leading rows (in `ch`). */
const SAMPLE_ROWS = 200;
const MIN_CH = 4;
const MAX_CH = 40;
/** Columns beyond this are not rendered (the CSV actions still carry all of them). */
export const MAX_COLUMNS = 300;

export interface SortState {
  column: number;
  descending: boolean;
}

interface Slot {
  row: HTMLDivElement;
  cells: HTMLDivElement[];
  index: number;
}

export class TableGrid {
  readonly el: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly headerCells: HTMLDivElement[] = [];
  private readonly columns: number;
  private readonly template: string;
  /** Columns whose sampled cells are all numbers: right-aligned like a spreadsheet. */
  private readonly numeric: boolean[];
  /** How each column's numbers are shown (undefined: as written); see cellFormat.ts. */
  private readonly styles: Array<NumberStyle | undefined>;
  /** Set for a profile table, whose figures are styled per row (see cellFormat.ts). */
  private readonly profile: ProfileLayout | undefined;
  private slots: Slot[] = [];
  private order: Uint32Array | undefined;
  private sort: SortState | undefined;
  private viewportHeight = 0;
  private readonly updateBound = (): void => this.update(false);

  constructor(
    private readonly header: readonly string[],
    private readonly rows: readonly (readonly string[])[],
    opts: { label: string; sort?: SortState; onSort: (sort: SortState | undefined) => void },
  ) {
    this.columns = Math.min(header.length, MAX_COLUMNS);
    this.profile = profileLayout(header);
    const columnIndices = Array.from({ length: this.columns }, (_, c) => c);
    this.numeric = columnIndices.map((c) => isNumericColumn(rows.slice(0, SAMPLE_ROWS), c));
    this.styles = columnIndices.map((c) => (this.numeric[c] ? columnFormat(header[c] ?? '', rows, c, SAMPLE_ROWS) : undefined));
    const widths = this.columnWidths();
    // An empty trailing track takes the rest of a wide panel, so a narrow table still spans the block.
    this.template = `${widths.map((w) => `${w}ch`).join(' ')} minmax(0, 1fr)`;
    const totalWidth = `${widths.reduce((a, b) => a + b, 0)}ch`;

    const headRow = h('div', { class: 'grid-row grid-header', attrs: { role: 'row', 'aria-rowindex': '1' } });
    headRow.style.gridTemplateColumns = this.template;
    headRow.style.width = totalWidth;
    for (let c = 0; c < this.columns; c++) {
      const name = header[c] || `Column ${c + 1}`;
      const btn = h('button', { class: 'sort-btn', attrs: { type: 'button', title: `Sort by ${name}` } }, h('span', { class: 'cell-text' }, name));
      btn.addEventListener('click', () => this.cycleSort(c, opts.onSort));
      const cell = h('div', { class: 'grid-cell', attrs: { role: 'columnheader', 'aria-sort': 'none' } }, btn);
      this.headerCells.push(cell);
      headRow.appendChild(cell);
    }
    this.body = h('div', { class: 'grid-body', attrs: { role: 'rowgroup' } });
    this.body.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.body.style.width = totalWidth;
    this.el = h(
      'div',
      {
        class: 'grid',
        attrs: {
          role: 'grid', tabindex: '0', 'aria-label': opts.label, 'aria-readonly': 'true',
          'aria-rowcount': String(rows.length + 1), 'aria-colcount': String(this.columns),
        },
      },
      h('div', { class: 'grid-head', attrs: { role: 'rowgroup' } }, headRow),
      this.body,
    );
    this.el.addEventListener('scroll', () => inFrame(this.updateBound), { passive: true });
    new ResizeObserver(() => {
      this.viewportHeight = this.el.clientHeight;
      inFrame(this.updateBound);
    }).observe(this.el);
    if (opts.sort && opts.sort.column < this.columns) this.applySort(opts.sort);
    this.update(true);
  }

  /** Cell `column` of `row` as the grid shows it (numbers rounded per column or profile row). */
  show(row: readonly string[], column: number): ShownCell {
    if (!this.profile && isMissingCell(row[column])) return { text: MISSING_CELL, rounded: false, missing: true };
    const style = this.profile ? profileFigureStyle(row, this.profile, column) ?? this.styles[column] : this.styles[column];
    return showCell(row[column] ?? '', style);
  }

  /** Row indices in display order (file order when unsorted). */
  displayOrder(): ArrayLike<number> | undefined {
    return this.order;
  }

  private columnWidths(): number[] {
    const widths: number[] = [];
    const sample = Math.min(this.rows.length, SAMPLE_ROWS);
    for (let c = 0; c < this.columns; c++) {
      let w = (this.header[c] ?? '').length + 3; // room for the sort arrow
      for (let r = 0; r < sample; r++) {
        const shown = this.show(this.rows[r] ?? [], c);
        w = Math.max(w, shown.text.length + (shown.rounded ? 1 : 0));
      }
      widths.push(Math.min(MAX_CH, Math.max(MIN_CH, w)) + 2);
    }
    return widths;
  }

  private cycleSort(column: number, onSort: (s: SortState | undefined) => void): void {
    const cur = this.sort;
    const next: SortState | undefined =
      !cur || cur.column !== column ? { column, descending: false } : !cur.descending ? { column, descending: true } : undefined;
    this.applySort(next);
    this.update(true);
    onSort(next);
    const name = this.header[column] || `column ${column + 1}`;
    announce(next ? `Sorted by ${name}, ${next.descending ? 'descending' : 'ascending'}` : 'Original order');
  }

  private applySort(sort: SortState | undefined): void {
    this.sort = sort;
    this.order = sort ? sortOrder(this.rows, sort.column, sort.descending) : undefined;
    this.headerCells.forEach((cell, c) => {
      const active = sort?.column === c;
      cell.setAttribute('aria-sort', active ? (sort.descending ? 'descending' : 'ascending') : 'none');
      const btn = cell.firstElementChild as HTMLElement;
      btn.querySelector('svg')?.remove();
      if (active) btn.appendChild(icon(sort.descending ? 'sortDown' : 'sortUp', 'sort-icon'));
    });
  }

  private makeSlot(): Slot {
    const row = h('div', { class: 'grid-row', attrs: { role: 'row' } });
    row.style.gridTemplateColumns = this.template;
    const cells: HTMLDivElement[] = [];
    for (let c = 0; c < this.columns; c++) {
      const cell = h('div', { class: this.numeric[c] ? 'grid-cell num' : 'grid-cell', attrs: { role: 'gridcell' } });
      cells.push(cell);
      row.appendChild(cell);
    }
    this.body.appendChild(row);
    return { row, cells, index: -1 };
  }

  /** Renders the rows in view; `force` rewrites them even if their index did not change (sort). */
  private update(force: boolean): void {
    const n = this.rows.length;
    const height = this.viewportHeight || this.el.clientHeight || 400;
    const visible = Math.ceil(height / ROW_HEIGHT) + 1;
    const first = Math.floor(this.el.scrollTop / ROW_HEIGHT);
    const start = Math.max(0, first - OVERSCAN);
    const count = Math.min(n - start, visible + 2 * OVERSCAN);
    while (this.slots.length < count) this.slots.push(this.makeSlot());
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i] as Slot;
      const index = i < count ? start + i : -1;
      if (index < 0) {
        if (slot.index !== -1) {
          slot.row.hidden = true;
          slot.index = -1;
        }
        continue;
      }
      if (!force && slot.index === index) continue;
      slot.index = index;
      slot.row.hidden = false;
      slot.row.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
      slot.row.setAttribute('aria-rowindex', String(index + 2));
      const data = this.rows[this.order ? (this.order[index] as number) : index] ?? [];
      for (let c = 0; c < this.columns; c++) {
        const raw = data[c] ?? '';
        const shown = this.show(data, c);
        const text = shown.rounded ? `${ROUNDED_MARK}${shown.text}` : shown.text;
        const cell = slot.cells[c] as HTMLDivElement;
        if (cell.textContent !== text) cell.textContent = text;
        cell.classList.toggle('missing', shown.missing === true);
        // The full value on hover when the cell is cut, rounded or regrouped.
        if (shown.missing) cell.title = 'No value';
        else if (text.length > 12 || text !== raw) cell.title = shown.rounded ? `Exact value: ${raw}` : raw;
        else if (cell.title) cell.removeAttribute('title');
      }
    }
  }
}
