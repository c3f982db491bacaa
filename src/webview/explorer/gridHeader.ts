/**
 * The grid's header row: per column its kind icon, name, sort direction (with its place in a
 * multi-column sort), a pin toggle and a drag handle on the right edge to resize. Sorting is a
 * click (Shift+click adds the column to the sort); the header cell carries aria-sort.
 */
import type { ExploreColumn, ExploreSort } from '../../shared/explore';
import { h } from '../dom';
import { icon } from '../icons';
import { kindIcon, xicon } from './explorerIcons';

export interface DisplayColumn extends ExploreColumn {
  /** Index of the column's value in a row as the service sends it. */
  index: number;
  width: number;
  pinned: boolean;
  /** Left edge in the grid's content (pinned columns first). */
  x: number;
}

export const MIN_WIDTH = 40;
export const MAX_WIDTH = 2000;

export function defaultWidth(c: ExploreColumn): number {
  switch (c.kind) {
    case 'number':
      return 110;
    case 'boolean':
      return 90;
    case 'date':
      return 120;
    case 'datetime':
      return 180;
    default:
      return 160;
  }
}

export interface HeaderEvents {
  sort(column: string, additive: boolean): void;
  togglePin(column: string): void;
  resize(column: string, width: number, done: boolean): void;
  /** The header cell was clicked: it becomes the keyboard focus. */
  focusHeader(displayCol: number): void;
}

export function headerCell(
  col: DisplayColumn,
  displayIndex: number,
  sort: ExploreSort[],
  sortable: boolean,
  ev: HeaderEvents,
): HTMLDivElement {
  const at = sort.findIndex((s) => s.column === col.name);
  const s = at >= 0 ? sort[at] : undefined;
  const dir = s ? (s.desc ? 'descending' : 'ascending') : undefined;
  const cell = h('div', {
    class: `x-hcell${col.pinned ? ' pinned' : ''}${s ? ' sorted' : ''}`,
    attrs: {
      role: 'columnheader',
      id: `x-h-${displayIndex}`,
      'aria-colindex': String(displayIndex + 1),
      'aria-sort': dir,
      'data-col': String(displayIndex),
      title: `${col.name} (${col.type})${sortable ? '\nClick or Enter to sort, Shift to add to the sort' : ''}\nAlt+Left/Right to resize, Alt+P to pin`,
    },
  });
  const label = h('span', { class: 'x-hname' }, col.name);
  cell.append(kindIcon(col.kind, col.type), label);
  if (s) {
    const ind = h('span', { class: 'x-sort', attrs: { 'aria-hidden': 'true' } }, icon(s.desc ? 'sortDown' : 'sortUp'));
    if (sort.length > 1) ind.appendChild(h('span', { class: 'x-sort-order' }, String(at + 1)));
    cell.appendChild(ind);
  }
  const pin = h('button', {
    class: `x-pin${col.pinned ? ' on' : ''}`,
    attrs: {
      type: 'button',
      tabindex: '-1',
      'aria-pressed': col.pinned ? 'true' : 'false',
      'aria-label': col.pinned ? `Unpin ${col.name}` : `Pin ${col.name} at the left`,
      title: col.pinned ? 'Unpin column' : 'Pin column at the left',
    },
  }, xicon('pin'));
  pin.addEventListener('click', (e) => {
    e.stopPropagation();
    ev.togglePin(col.name);
  });
  cell.appendChild(pin);
  const grip = h('div', { class: 'x-resize', attrs: { 'aria-hidden': 'true', title: 'Drag to resize' } });
  grip.addEventListener('pointerdown', (e) => startResize(e, col, ev));
  grip.addEventListener('click', (e) => e.stopPropagation());
  cell.appendChild(grip);
  cell.addEventListener('click', (e) => {
    ev.focusHeader(displayIndex);
    if (sortable) ev.sort(col.name, e.shiftKey);
  });
  return cell;
}

function startResize(e: PointerEvent, col: DisplayColumn, ev: HeaderEvents): void {
  e.preventDefault();
  e.stopPropagation();
  const startX = e.clientX;
  const start = col.width;
  // Listen on the window: each move redraws the header, which replaces this grip element.
  const widthAt = (x: number): number => Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, start + x - startX)));
  const move = (m: PointerEvent): void => ev.resize(col.name, widthAt(m.clientX), false);
  const up = (u: PointerEvent): void => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
    ev.resize(col.name, widthAt(u.clientX), true);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}

/** The next sort after a click on `column`: asc → desc → off; Shift keeps the other columns. */
export function nextSort(sort: ExploreSort[], column: string, additive: boolean, max: number): ExploreSort[] {
  const at = sort.findIndex((s) => s.column === column);
  const cur = at >= 0 ? sort[at] : undefined;
  if (!additive) {
    // One column sorted: asc → desc → off. Several: a plain click makes this one the only sort.
    if (!cur || sort.length > 1) return [{ column, desc: false }];
    return cur.desc ? [] : [{ column, desc: true }];
  }
  if (!cur) return sort.length >= max ? sort : [...sort, { column, desc: false }];
  if (!cur.desc) return sort.map((s) => (s.column === column ? { column, desc: true } : s));
  return sort.filter((s) => s.column !== column);
}
