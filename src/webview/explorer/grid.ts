/**
 * The virtual grid. Only the rows in view (and only the columns in view) are in the DOM, in a
 * canvas that stays put (`position: sticky`) over a sizer that gives the scroller its full
 * height and width; the scrollbar's position is mapped to rows by scrollMap.ts, so 10 M rows
 * scroll end to end. Pinned columns are drawn first and do not move sideways; pinned rows sit
 * under the header. The canvas is the ARIA grid; the focused cell is named by
 * aria-activedescendant so a screen reader follows the keyboard without real focus moves.
 */
import type { ExploreSort } from '../../shared/explore';
import { h } from '../dom';
import { headerCell, MAX_WIDTH, MIN_WIDTH, type DisplayColumn, type HeaderEvents } from './gridHeader';
import type { Cell } from './rowCache';
import { frameAt, scrollTopFor, type ScrollFrame } from './scrollMap';
import { inRect, moveFor, rectOf, type Pos, type Selection } from './selection';

export const ROW_HEIGHT = 24;
export const HEADER_HEIGHT = 28;

export interface GridModel {
  columns: DisplayColumn[];
  sort: ExploreSort[];
  sortable: boolean;
  total: number;
  row(index: number): Cell[] | undefined;
  pinnedRows: Array<{ index: number; values: Cell[] }>;
}

export interface GridEvents extends HeaderEvents {
  /** The view shows rows [first, first + count). */
  view(first: number, count: number): void;
  copy(): string | undefined;
}

export class Grid {
  readonly scroller: HTMLDivElement;
  readonly canvas: HTMLDivElement;
  private readonly head: HTMLDivElement;
  private readonly pinBand: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly sizer: HTMLDivElement;
  private model: GridModel | undefined;
  private frame: ScrollFrame | undefined;
  private rafPending = false;
  sel: Selection = { anchor: { row: 0, col: 0 }, focus: { row: 0, col: 0 } };

  constructor(parent: HTMLElement, private readonly ev: GridEvents, label: string) {
    this.head = h('div', { class: 'x-head', attrs: { role: 'rowgroup' } });
    this.pinBand = h('div', { class: 'x-pinned-rows', attrs: { role: 'rowgroup', 'aria-label': 'Pinned rows' } });
    this.body = h('div', { class: 'x-body', attrs: { role: 'rowgroup' } });
    this.canvas = h('div', {
      class: 'x-canvas',
      attrs: { role: 'grid', tabindex: '0', 'aria-label': label, 'aria-multiselectable': 'true', 'aria-readonly': 'true' },
    }, this.head, this.pinBand, this.body);
    this.sizer = h('div', { class: 'x-sizer', attrs: { 'aria-hidden': 'true' } });
    this.scroller = h('div', { class: 'x-scroller' }, this.canvas, this.sizer);
    parent.appendChild(this.scroller);
    this.scroller.addEventListener('scroll', () => this.schedule());
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('pointerdown', (e) => this.onPointer(e));
    document.addEventListener('copy', (e) => this.onCopy(e));
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  setModel(m: GridModel): void {
    this.model = m;
    this.render();
  }

  setLabel(label: string): void {
    this.canvas.setAttribute('aria-label', label);
  }

  schedule(): void {
    if (this.rafPending) return;
    this.rafPending = true;
    requestAnimationFrame(() => {
      this.rafPending = false;
      this.render();
    });
  }

  /** Height left for rows: the canvas's height less the header and the pinned rows. */
  private rowsHeight(): number {
    const m = this.model;
    return Math.max(ROW_HEIGHT, this.scroller.clientHeight - HEADER_HEIGHT - (m ? m.pinnedRows.length * ROW_HEIGHT : 0));
  }

  get rowsPerPage(): number {
    return Math.max(1, Math.floor(this.rowsHeight() / ROW_HEIGHT) - 1);
  }

  render(): void {
    const m = this.model;
    if (!m) return;
    const rowsH = this.rowsHeight();
    const f = frameAt(this.scroller.scrollTop, rowsH, m.total, ROW_HEIGHT);
    this.frame = f;
    // The rows in view are asked for before the DOM is drawn: the request is on its way meanwhile.
    this.ev.view(f.firstRow, f.rowsInView);
    const contentW = m.columns.reduce((w, c) => w + c.width, 0);
    const viewW = this.scroller.clientWidth;
    const viewH = this.scroller.clientHeight;
    // The canvas covers the view; the sizer adds what is left of the content's size.
    this.canvas.style.width = `${viewW}px`;
    this.canvas.style.height = `${viewH}px`;
    this.sizer.style.width = `${Math.max(contentW, viewW)}px`;
    this.sizer.style.height = `${Math.max(0, f.virtualHeight + HEADER_HEIGHT + m.pinnedRows.length * ROW_HEIGHT - viewH)}px`;
    this.canvas.setAttribute('aria-rowcount', String(m.total + 1));
    this.canvas.setAttribute('aria-colcount', String(m.columns.length));
    const cols = this.visibleColumns(m.columns, viewW);
    this.renderHead(m, cols);
    const r = rectOf(this.sel);
    this.fillRows(this.pinBand, m.pinnedRows.map((p) => p.index), (i) => m.pinnedRows[i]?.values, cols, r, 0, true);
    const indexes: number[] = [];
    for (let i = 0; i < f.rowsInView; i++) indexes.push(f.firstRow + i);
    this.fillRows(this.body, indexes, (i) => m.row(indexes[i] ?? -1), cols, r, -f.shift, false);
    this.pinBand.style.height = `${m.pinnedRows.length * ROW_HEIGHT}px`;
    this.updateActive();
  }

  /** Pinned columns always; others only where they overlap the view (plus their x on screen). */
  private visibleColumns(all: DisplayColumn[], viewW: number): Array<{ c: DisplayColumn; d: number; left: number }> {
    const sl = this.scroller.scrollLeft;
    const pinnedW = all.filter((c) => c.pinned).reduce((w, c) => w + c.width, 0);
    const out: Array<{ c: DisplayColumn; d: number; left: number }> = [];
    all.forEach((c, d) => {
      if (c.pinned) out.push({ c, d, left: c.x });
      else {
        const left = c.x - sl;
        if (left + c.width > pinnedW && left < viewW) out.push({ c, d, left });
      }
    });
    return out;
  }

  private headerKey = '';

  private renderHead(m: GridModel, cols: Array<{ c: DisplayColumn; d: number; left: number }>): void {
    const key = JSON.stringify([cols.map((x) => [x.c.name, x.c.width, x.c.pinned]), m.sort, m.sortable]);
    if (key !== this.headerKey) {
      this.headerKey = key;
      const row = h('div', { class: 'x-row x-header-row', attrs: { role: 'row', 'aria-rowindex': '1' } });
      for (const x of cols) row.appendChild(headerCell(x.c, x.d, m.sort, m.sortable, this.ev));
      this.head.replaceChildren(row);
    }
    const cells = this.head.firstElementChild?.children ?? [];
    cols.forEach((x, i) => {
      const el = cells[i] as HTMLElement | undefined;
      if (!el) return;
      el.style.transform = `translateX(${x.left}px)`;
      el.style.width = `${x.c.width}px`;
    });
  }

  private fillRows(
    group: HTMLElement,
    indexes: number[],
    rowOf: (slot: number) => Cell[] | undefined,
    cols: Array<{ c: DisplayColumn; d: number; left: number }>,
    r: ReturnType<typeof rectOf>,
    top: number,
    pinned: boolean,
  ): void {
    while (group.children.length > indexes.length) group.lastElementChild?.remove();
    indexes.forEach((index, slot) => {
      let rowEl = group.children[slot] as HTMLDivElement | undefined;
      if (!rowEl) {
        rowEl = h('div', { class: 'x-row', attrs: { role: 'row' } });
        group.appendChild(rowEl);
      }
      const values = rowOf(slot);
      rowEl.className = `x-row${values ? '' : ' x-placeholder'}${pinned ? ' x-pinned-row' : ''}${index % 2 ? ' odd' : ''}`;
      rowEl.setAttribute('aria-rowindex', String(index + 2));
      rowEl.setAttribute('data-row', String(index));
      rowEl.setAttribute('aria-busy', values ? 'false' : 'true');
      rowEl.style.transform = `translateY(${top + slot * ROW_HEIGHT}px)`;
      while (rowEl.children.length > cols.length) rowEl.lastElementChild?.remove();
      cols.forEach((x, i) => {
        let cell = rowEl.children[i] as HTMLDivElement | undefined;
        if (!cell) {
          cell = h('div', { attrs: { role: 'gridcell' } });
          rowEl.appendChild(cell);
        }
        const v = values?.[x.c.index];
        const selected = !pinned && inRect(r, index, x.d);
        cell.className = `x-cell${x.c.kind === 'number' ? ' num' : ''}${x.c.pinned ? ' pinned' : ''}${v === null ? ' null' : ''}${selected ? ' selected' : ''}`;
        if (pinned) cell.removeAttribute('id');
        else cell.id = `x-c-${index}-${x.d}`;
        cell.setAttribute('aria-colindex', String(x.d + 1));
        cell.setAttribute('aria-selected', selected ? 'true' : 'false');
        cell.setAttribute('data-col', String(x.d));
        cell.style.transform = `translateX(${x.left}px)`;
        cell.style.width = `${x.c.width}px`;
        cell.textContent = !values ? '' : v === null || v === undefined ? 'null' : String(v).replace(/\r?\n/g, '↵');
      });
    });
  }

  private updateActive(): void {
    for (const el of this.canvas.querySelectorAll('.x-active')) el.classList.remove('x-active');
    const f = this.sel.focus;
    const id = f.row < 0 ? `x-h-${f.col}` : `x-c-${f.row}-${f.col}`;
    const el = document.getElementById(id);
    if (el && this.canvas.contains(el)) {
      el.classList.add('x-active');
      this.canvas.setAttribute('aria-activedescendant', id);
    } else this.canvas.removeAttribute('aria-activedescendant');
  }

  /** Moves the focus (and the selection with it) and scrolls it into view. */
  focusCell(p: Pos, extend: boolean): void {
    this.sel = extend && p.row >= 0 ? { anchor: this.sel.anchor, focus: p } : { anchor: p, focus: p };
    this.reveal(p);
    this.render();
  }

  private reveal(p: Pos): void {
    const m = this.model;
    if (!m) return;
    const f = this.frame ?? frameAt(this.scroller.scrollTop, this.rowsHeight(), m.total, ROW_HEIGHT);
    const rowsH = this.rowsHeight();
    const full = Math.max(1, Math.floor(rowsH / ROW_HEIGHT));
    if (p.row >= 0 && (p.row < f.firstRow + (f.shift > 0 ? 1 : 0) || p.row >= f.firstRow + full)) {
      const first = p.row < f.firstRow + 1 ? p.row : p.row - full + 1;
      this.scroller.scrollTop = scrollTopFor(Math.max(0, first), rowsH, m.total, ROW_HEIGHT);
    }
    const c = m.columns[p.col];
    if (c && !c.pinned) {
      const pinnedW = m.columns.filter((x) => x.pinned).reduce((w, x) => w + x.width, 0);
      const sl = this.scroller.scrollLeft;
      const left = c.x - pinnedW;
      if (c.x - sl < pinnedW) this.scroller.scrollLeft = Math.max(0, left);
      else if (c.x + c.width - sl > this.scroller.clientWidth) this.scroller.scrollLeft = c.x + c.width - this.scroller.clientWidth;
    }
  }

  private onKey(e: KeyboardEvent): void {
    const m = this.model;
    if (!m) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const at = this.sel.focus;
    const head = at.row < 0 ? m.columns[at.col] : undefined;
    // On a header: Alt+Left/Right resizes the column and Alt+P pins it, so neither needs a mouse.
    if (head && e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      this.ev.resize(head.name, Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, head.width + (e.key === 'ArrowLeft' ? -16 : 16))), true);
      return;
    }
    if (head && e.altKey && e.code === 'KeyP') {
      e.preventDefault();
      this.ev.togglePin(head.name);
      // The column moved (pinned ones come first): keep the focus on it.
      this.focusCell({ row: -1, col: Math.max(0, this.model?.columns.findIndex((c) => c.name === head.name) ?? 0) }, false);
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && at.row < 0) {
      const c = m.columns[at.col];
      if (c && m.sortable) this.ev.sort(c.name, e.shiftKey);
      e.preventDefault();
      return;
    }
    const to = moveFor(e.key, ctrl, at, { rows: m.total, cols: m.columns.length, pageRows: this.rowsPerPage });
    if (!to) return;
    e.preventDefault();
    this.focusCell(to, e.shiftKey);
  }

  private onPointer(e: PointerEvent): void {
    const t = e.target instanceof Element ? e.target : null;
    const cell = t?.closest('.x-cell');
    const rowEl = t?.closest('.x-row');
    this.canvas.focus({ preventScroll: true });
    if (!cell || !rowEl || rowEl.classList.contains('x-pinned-row')) return;
    const row = Number(rowEl.getAttribute('data-row'));
    const col = Number(cell.getAttribute('data-col'));
    if (!Number.isInteger(row) || !Number.isInteger(col)) return;
    this.focusCell({ row, col }, e.shiftKey);
  }

  private onCopy(e: ClipboardEvent): void {
    if (document.activeElement !== this.canvas || !e.clipboardData) return;
    const text = this.ev.copy();
    if (text === undefined) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  }
}
