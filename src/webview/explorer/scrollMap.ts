/**
 * Maps the scrollbar's position to rows when rows × row height is taller than a browser lets an
 * element be (Chromium stops near 33.5 M px; 10 M rows × 24 px is 240 M px). The scroll area is
 * capped at {@link MAX_SCROLL_PX} and its range is stretched linearly onto the real one, so the
 * thumb still goes end to end: the top shows row 0 and the bottom the last row. Below the cap the
 * mapping is the identity and scrolling is pixel exact.
 */
export const MAX_SCROLL_PX = 8_000_000;

export interface ScrollFrame {
  /** Height of the scrollable rows area (what the sizer gets). */
  virtualHeight: number;
  /** The real top of the view in row pixels (row i starts at i × rowHeight). */
  realTop: number;
  /** First row drawn and how far above the view's top it starts (≥ 0). */
  firstRow: number;
  shift: number;
  /** Rows drawn (enough to cover the view, plus a partly shown last one). */
  rowsInView: number;
}

export function virtualHeightOf(total: number, rowHeight: number): number {
  return Math.min(total * rowHeight, MAX_SCROLL_PX);
}

/** Where the view is, given the scroller's `scrollTop` and the rows area's visible height. */
export function frameAt(scrollTop: number, viewHeight: number, total: number, rowHeight: number): ScrollFrame {
  const realHeight = total * rowHeight;
  const virtualHeight = virtualHeightOf(total, rowHeight);
  const maxVirtual = Math.max(0, virtualHeight - viewHeight);
  const maxReal = Math.max(0, realHeight - viewHeight);
  const top = Math.min(Math.max(0, scrollTop), maxVirtual);
  const realTop = maxVirtual > 0 ? (virtualHeight === realHeight ? top : (top / maxVirtual) * maxReal) : 0;
  const firstRow = Math.min(Math.floor(realTop / rowHeight), Math.max(0, total - 1));
  const shift = realTop - firstRow * rowHeight;
  const rowsInView = Math.max(0, Math.min(total - firstRow, Math.ceil((viewHeight + shift) / rowHeight)));
  return { virtualHeight, realTop, firstRow, shift, rowsInView };
}

/** The scrollTop that puts `row` at the top of the view (the inverse of {@link frameAt}). */
export function scrollTopFor(row: number, viewHeight: number, total: number, rowHeight: number): number {
  const realHeight = total * rowHeight;
  const virtualHeight = virtualHeightOf(total, rowHeight);
  const maxVirtual = Math.max(0, virtualHeight - viewHeight);
  const maxReal = Math.max(0, realHeight - viewHeight);
  const realTop = Math.min(row * rowHeight, maxReal);
  if (virtualHeight === realHeight) return realTop;
  return maxReal > 0 ? (realTop / maxReal) * maxVirtual : 0;
}
