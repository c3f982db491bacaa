/**
 * How numbers in a table are shown: per column, with at most two decimals when its typical value is
 * 1 or more (money keeps its cents) and about four significant digits below that, and never more
 * decimals than its values really have: `14.99000000000008` shows as `14.99`, `0.04273255813953`
 * as `0.04273`, `118544311.3099` as `118544311.31`. Only the display changes: sorting and the CSV
 * keep the full values, and the copy actions can take either.
 */
const PLAIN = /^-?\d+(\.\d+)?$/;
const MAX_DECIMALS = 8;
const SIGNIFICANT = 4;

/** Decimals to show in column `c`, or undefined to show its cells as written (integers, text, mixed formats). */
export function columnDecimals(rows: readonly (readonly string[])[], c: number, sample = 200): number | undefined {
  const values: number[] = [];
  for (let r = 0; r < Math.min(rows.length, sample); r++) {
    const cell = (rows[r]?.[c] ?? '').trim();
    if (cell === '') continue;
    if (!PLAIN.test(cell)) return undefined;
    values.push(Number(cell));
  }
  if (!values.some((v) => !Number.isInteger(v))) return undefined;
  const sizes = values.filter((v) => v !== 0).map(Math.abs).sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? 1;
  const bySize = typical >= 1 ? 2 : Math.min(MAX_DECIMALS, Math.max(2, SIGNIFICANT - 1 - Math.floor(Math.log10(typical))));
  // The decimals the values really carry, float noise aside (14.99000000000008 carries 2).
  let needed = 0;
  while (needed < bySize && !values.every((v) => Math.abs(Number(v.toFixed(needed)) - v) <= Math.abs(v) * 1e-9)) needed++;
  return Math.min(bySize, needed);
}

/** A cell as shown with `decimals` (undefined: as written). */
export function formatCell(cell: string, decimals: number | undefined): string {
  if (decimals === undefined || !PLAIN.test(cell.trim())) return cell;
  const shown = Number(cell).toFixed(decimals);
  return shown === '-0' || /^-0\.0*$/.test(shown) ? shown.slice(1) : shown;
}
