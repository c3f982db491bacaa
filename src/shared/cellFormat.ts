/**
 * How numbers in a table are shown: per column, by the rule prose and profiles use too
 * (src/shared/numberFormat.ts): years and ids as written, amounts with thousands separators and
 * the column's decimals (`250,128,206.98`, `1,200.00`), measurements to four significant digits.
 * A shown value that is not the exact one carries a visible mark (`≈60.77`) and the exact value on
 * hover. Only the display changes: sorting, the CSV and "Copy with Headers" keep the exact values.
 * A profile table (one row per column of the data) styles its figures per row instead, by the
 * column each row describes, as the profile's prose does: `year` 2023 to 2024, mean 2023.5.
 */
import { columnStyle, formatAs, isRounded, profileStyles, type NumberStyle } from './numberFormat';

const PLAIN = /^-?\d+(\.\d+)?$/;
/** Integers with more digits than a double holds exactly are shown as written. */
const EXACT_INTEGER = /^-?\d{1,15}(\.|$)/;
/** Put in front of a value shown rounded. */
export const ROUNDED_MARK = '≈';

/** The style of column `c` (named `name`), or undefined to show its cells as written (text, mixed or preformatted cells). */
export function columnFormat(name: string, rows: readonly (readonly string[])[], c: number, sample = 200): NumberStyle | undefined {
  const values: number[] = [];
  for (let r = 0; r < Math.min(rows.length, sample); r++) {
    const cell = (rows[r]?.[c] ?? '').trim();
    if (cell === '') continue;
    if (!PLAIN.test(cell)) return undefined;
    if (EXACT_INTEGER.test(cell)) values.push(Number(cell));
  }
  return values.length === 0 ? undefined : columnStyle(name, values);
}

export interface ShownCell {
  /** The text the grid shows, without the rounded mark. */
  text: string;
  /** The shown text is not the exact value. */
  rounded: boolean;
  /** The cell is empty (SQL NULL in the result) and shows {@link MISSING_CELL}. */
  missing?: boolean;
}

/**
 * What a result table shows for an empty cell: the value is missing (a group of rows with no
 * region, an average of nothing), as the answer's text and chart say. Copies and the saved file
 * keep the empty value. A profile table's blanks mean "does not apply" (no minimum of a text
 * column) and stay blank.
 */
export const MISSING_CELL = '(missing)';

/** Is `cell` (absent in a short row) an empty, missing value? */
export function isMissingCell(cell: string | undefined): boolean {
  return (cell ?? '').trim() === '';
}

/** A cell as shown with the column's `style` (undefined: as written). */
export function showCell(cell: string, style: NumberStyle | undefined): ShownCell {
  const t = cell.trim();
  if (style === undefined || style.kind === 'id' || !PLAIN.test(t) || !EXACT_INTEGER.test(t)) return { text: cell, rounded: false };
  const v = Number(t);
  return { text: formatAs(v, style), rounded: isRounded(v, style) };
}

/** Where a profile table (the service's PROFILE_COLUMNS) keeps the described column's name and figures. */
export interface ProfileLayout {
  name: number;
  min: number;
  max: number;
  mean: number;
}

/** The layout when `header` is a profile table's, else undefined. */
export function profileLayout(header: readonly string[]): ProfileLayout | undefined {
  const [name, min, max, mean] = ['column_name', 'min_value', 'max_value', 'mean_value'].map((h) => header.indexOf(h)) as [number, number, number, number];
  return name >= 0 && min >= 0 && max >= 0 && mean >= 0 ? { name, min, max, mean } : undefined;
}

function figure(cell: string | undefined): number {
  const t = (cell ?? '').trim();
  return PLAIN.test(t) && EXACT_INTEGER.test(t) ? Number(t) : Number.NaN;
}

/** The style of a profile row's figure in column `c` (undefined when `c` holds no figure). */
export function profileFigureStyle(row: readonly string[], layout: ProfileLayout, c: number): NumberStyle | undefined {
  if (c !== layout.min && c !== layout.max && c !== layout.mean) return undefined;
  const styles = profileStyles(row[layout.name] ?? '', figure(row[layout.min]), figure(row[layout.max]), figure(row[layout.mean]));
  return c === layout.mean ? styles.mean : styles.range;
}
