/**
 * A numeric column's minimum, maximum and mean as people read them, by the one rule prose and the
 * panel's tables use (src/shared/numberFormat.ts), chosen for that column: a year column reads
 * `2023 to 2024, mean 2023.5`, an amount `0 to 4,998.14, mean 2,514.41`, a reading
 * `60.77 to 89.20, mean 74.98`, never a raw double like `60.77015000000014`. The profile table keeps
 * DuckDB's exact figures; the panel shows them by the same rule (webview cellFormat.ts).
 */
import { formatAs, profileStyles, type NumberStyle } from '../../shared/numberFormat';
import type { ColumnProfile } from './profileSummary';

export interface Figures {
  min: string;
  max: string;
  mean: string;
}

/** DuckDB's text of a number, or NaN. Integers past 2^53 are not numbers here: they are kept as written. */
export function figureOf(raw: string | null): number {
  const t = (raw ?? '').trim();
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t) || /^-?\d{16,}/.test(t)) return Number.NaN;
  return Number(t);
}

/** `min`, `max` and `mean` of a numeric profile column, formatted for its kind (anything else as written). */
export function profileFigures(c: Pick<ColumnProfile, 'name' | 'min' | 'max' | 'mean'>): Figures {
  const [lo, hi, mean] = [figureOf(c.min), figureOf(c.max), figureOf(c.mean)];
  const styles = profileStyles(c.name, lo, hi, mean);
  const show = (v: number, raw: string | null, style: NumberStyle): string => (Number.isFinite(v) ? formatAs(v, style) : raw ?? '');
  return { min: show(lo, c.min, styles.range), max: show(hi, c.max, styles.range), mean: show(mean, c.mean, styles.mean) };
}
