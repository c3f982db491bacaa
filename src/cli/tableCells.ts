/**
 * A result table's cells as the panel shows them (src/shared/cellFormat.ts): per column, years and
 * ids as written, amounts with thousands separators and the column's decimals, measurements to
 * four significant digits, a profile table's figures by the column each row describes; a value
 * shown rounded carries the mark `≈`. Only what the terminal shows changes: the CSV the CLI saves
 * and `--json` keep the exact values.
 */
import { columnFormat, isMissingCell, MISSING_CELL, profileFigureStyle, profileLayout, ROUNDED_MARK, showCell } from '../shared/cellFormat';
import type { NumberStyle } from '../shared/numberFormat';

/** Rows read to choose a column's style (the panel's grid samples as many). */
const SAMPLE_ROWS = 200;

export interface ShownTable {
  /** `rows[0]` is the header, unchanged; the other rows as shown. */
  rows: string[][];
  /** Some shown value is not the exact one (it carries {@link ROUNDED_MARK}). */
  rounded: boolean;
}

/** `rows` (header first) with each number shown by its column's rule. */
export function shownTable(rows: readonly (readonly string[])[]): ShownTable {
  const header = [...(rows[0] ?? [])];
  const body = rows.slice(1);
  const profile = profileLayout(header);
  const styles: Array<NumberStyle | undefined> = header.map((name, c) => columnFormat(name, body, c, SAMPLE_ROWS));
  let rounded = false;
  const shown = body.map((row) => row.map((cell, c) => {
    // An empty cell is a missing value, named as the answer's text names it (not in a profile).
    if (!profile && isMissingCell(cell)) return MISSING_CELL;
    const style = profile ? profileFigureStyle(row, profile, c) ?? styles[c] : styles[c];
    const cellShown = showCell(cell, style);
    if (!cellShown.rounded) return cellShown.text;
    rounded = true;
    return `${ROUNDED_MARK}${cellShown.text}`;
  }));
  return { rows: [header, ...shown], rounded };
}
