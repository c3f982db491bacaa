/**
 * Sorting for the table grid: numeric-aware (a column whose non-empty cells are all numbers sorts
 * by value, so 10 follows 9), stable (equal keys keep file order, in both directions), empty
 * cells last in both directions. Returns a permutation instead of moving rows, so the grid and
 * "Copy with Headers" share one order and the data is never copied.
 */
const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d*)(\.\d+)?([eE][+-]?\d+)?%?$/;

function toNumber(cell: string): number | undefined {
  const t = cell.trim();
  if (t === '' || !/\d/.test(t) || !NUMBER.test(t)) return undefined;
  const n = Number(t.replace(/[,%]/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

/** True when every non-empty cell of the column parses as a number (and at least one does). */
export function isNumericColumn(rows: readonly (readonly string[])[], column: number): boolean {
  let seen = false;
  for (const r of rows) {
    const cell = r[column] ?? '';
    if (cell.trim() === '') continue;
    if (toNumber(cell) === undefined) return false;
    seen = true;
  }
  return seen;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Row indices of `rows` in sorted order. */
export function sortOrder(rows: readonly (readonly string[])[], column: number, descending: boolean): Uint32Array {
  const n = rows.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const dir = descending ? -1 : 1;
  const empty = new Uint8Array(n);
  if (isNumericColumn(rows, column)) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = toNumber(rows[i]?.[column] ?? '');
      if (v === undefined) empty[i] = 1;
      else keys[i] = v;
    }
    order.sort((a, b) => empty[a]! - empty[b]! || dir * (keys[a]! - keys[b]!) || a - b);
    return order;
  }
  const keys: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const v = rows[i]?.[column] ?? '';
    keys[i] = v;
    if (v.trim() === '') empty[i] = 1;
  }
  order.sort((a, b) => empty[a]! - empty[b]! || dir * collator.compare(keys[a]!, keys[b]!) || a - b);
  return order;
}
