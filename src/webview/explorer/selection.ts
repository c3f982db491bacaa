/**
 * The grid's selection and keyboard moves, as pure functions of positions: a rectangle from an
 * anchor cell to the focused cell (Shift extends it), and the TSV a copy puts on the clipboard.
 * Row -1 is the header row (reachable by keyboard so a column can be sorted without a mouse).
 */
import type { Cell } from './rowCache';

export interface Pos {
  row: number;
  col: number;
}

export interface Selection {
  anchor: Pos;
  focus: Pos;
}

export interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export function rectOf(s: Selection): Rect {
  return {
    top: Math.max(0, Math.min(s.anchor.row, s.focus.row)),
    bottom: Math.max(s.anchor.row, s.focus.row),
    left: Math.min(s.anchor.col, s.focus.col),
    right: Math.max(s.anchor.col, s.focus.col),
  };
}

export function inRect(r: Rect, row: number, col: number): boolean {
  return row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
}

export interface Bounds {
  rows: number;
  cols: number;
  /** Rows a page key moves by. */
  pageRows: number;
}

/** Where a navigation key takes the focus, or undefined when the key is not a move. */
export function moveFor(key: string, ctrl: boolean, at: Pos, b: Bounds): Pos | undefined {
  const lastRow = Math.max(-1, b.rows - 1);
  const lastCol = Math.max(0, b.cols - 1);
  const clampRow = (r: number): number => Math.min(lastRow, Math.max(-1, r));
  const clampCol = (c: number): number => Math.min(lastCol, Math.max(0, c));
  switch (key) {
    case 'ArrowUp':
      return { row: clampRow(ctrl ? -1 : at.row - 1), col: at.col };
    case 'ArrowDown':
      return { row: clampRow(ctrl ? lastRow : at.row + 1), col: at.col };
    case 'ArrowLeft':
      return { row: at.row, col: clampCol(ctrl ? 0 : at.col - 1) };
    case 'ArrowRight':
      return { row: at.row, col: clampCol(ctrl ? lastCol : at.col + 1) };
    case 'PageUp':
      return { row: clampRow(Math.max(at.row < 0 ? -1 : 0, at.row - b.pageRows)), col: at.col };
    case 'PageDown':
      return { row: clampRow(at.row + b.pageRows), col: at.col };
    case 'Home':
      return ctrl ? { row: Math.min(0, lastRow), col: 0 } : { row: at.row, col: 0 };
    case 'End':
      return ctrl ? { row: lastRow, col: lastCol } : { row: at.row, col: lastCol };
    default:
      return undefined;
  }
}

/** A value as text in a cell and on the clipboard. */
export function cellText(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : String(v);
}

/** Quotes a TSV field the way spreadsheets read it back: only when it holds a tab, newline or quote. */
function tsvField(s: string): string {
  return /[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The selection as TSV with a header line of the selected columns' names. Rows not loaded are
 * left out and counted, so the caller can say so instead of pasting blanks.
 */
export const MAX_COPY_ROWS = 100_000;

export function selectionTsv(
  r: Rect,
  columns: string[],
  rowAt: (index: number) => Cell[] | undefined,
  columnIndex: (displayCol: number) => number,
): { text: string; rows: number; missing: number } {
  const lines = [columns.slice(r.left, r.right + 1).map(tsvField).join('\t')];
  let missing = 0;
  // Only loaded rows can be copied (the grid holds a few pages); past the cap they are counted.
  const last = Math.min(r.bottom, r.top + MAX_COPY_ROWS - 1);
  missing += r.bottom - last;
  for (let i = r.top; i <= last; i++) {
    const row = rowAt(i);
    if (!row) {
      missing++;
      continue;
    }
    const cells: string[] = [];
    for (let c = r.left; c <= r.right; c++) cells.push(tsvField(cellText(row[columnIndex(c)])));
    lines.push(cells.join('\t'));
  }
  return { text: `${lines.join('\n')}\n`, rows: r.bottom - r.top + 1 - missing, missing };
}
