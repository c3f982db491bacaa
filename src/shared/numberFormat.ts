/**
 * One rule for numbers wherever people read them: the answer's prose, the panel's tables and the
 * profiles. The rule is chosen per column from its name and values:
 * - year: as written, no thousands separator (`2023`; a mean of years `2023.5`);
 * - id: as written (`1120`, `02134` stays text elsewhere), never grouped or rounded;
 * - amount (money, counts, totals): thousands separators; whole numbers without decimals, others
 *   with two, trailing zeros kept so a column lines up (`10,060.30`, `1,200.00`);
 * - share (percent, rate, ratio): one decimal from 1 up (`45.5`), four significant digits below;
 * - measurement (readings, means: values that carry more than two decimals): four significant
 *   digits of the column's typical value, at least two decimals from 1 up (`60.77`, `0.03939`).
 * A column never shows more decimals than its values carry (float noise such as
 * `14.99000000000008` aside). {@link isRounded} tells when a shown value is not the exact one, so
 * the table can mark it and give the full value on hover.
 */
export type NumberKind = 'year' | 'id' | 'amount' | 'share' | 'measurement';

export interface NumberStyle {
  kind: NumberKind;
  /** Decimals every value of the column is shown with. */
  decimals: number;
  /** Thousands separators. */
  grouped: boolean;
}

const MAX_DECIMALS = 8;
const SIGNIFICANT = 4;
/**
 * Digits past the 13th significant one are float noise (sums of doubles end in ...749999999993,
 * 14.99 read back as 14.99000000000008); the service keeps 13 for the same reason (planRunner.ts).
 */
const EXACT_DIGITS = 13;

const YEAR_WORDS = new Set(['year', 'years', 'yr', 'yyyy', 'jahr', 'annee', 'année', 'año', 'anno']);
const ID_WORDS = new Set(['id', 'ids', 'key', 'code', 'zip', 'zipcode', 'postcode', 'no', 'nr', 'num', 'number']);
const SHARE_WORDS = new Set(['share', 'pct', 'percent', 'percentage', 'ratio', 'rate', 'fraction', 'proportion']);
const AMOUNT_WORDS = new Set([
  'revenue', 'price', 'cost', 'costs', 'sales', 'amount', 'total', 'sum', 'count', 'qty', 'quantity', 'profit', 'income',
  'spend', 'budget', 'fee', 'fees', 'tax', 'salary', 'wage', 'pay', 'balance', 'margin', 'turnover', 'usd', 'eur', 'gbp',
]);

/** Words of a count or sum: `distinct_customer_id` counts ids and `total_year` adds years up; both are amounts. */
const COUNTING_WORDS = new Set(['distinct', 'count', 'total', 'sum']);

/** The words of a column name: `order_date_year` -> order, date, year; `orderId` -> order, id. */
function words(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** `v` without float noise: 14.99000000000008 -> 14.99, 17832.749999999993 -> 17832.75. */
function denoised(v: number): number {
  return Number(v.toPrecision(EXACT_DIGITS));
}

/** Fewest decimals (up to `max`) that show every value exactly, float noise aside. */
function carriedDecimals(values: readonly number[], max: number): number {
  let d = 0;
  while (d < max && !values.every((v) => Number(v.toFixed(d)) === denoised(v))) d++;
  return d;
}

/** The typical size of the values (median of the nonzero magnitudes; 1 when all are zero). */
function typicalSize(values: readonly number[]): number {
  const sizes = values.filter((v) => v !== 0).map(Math.abs).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 1;
}

/** Decimals that give four significant digits of `typical`, at least `floor`. */
function significantDecimals(typical: number, floor: number): number {
  return Math.min(MAX_DECIMALS, Math.max(floor, SIGNIFICANT - 1 - Math.floor(Math.log10(typical))));
}

/** Which kind of number a column holds, from its name and (finite) values. */
export function numberKind(name: string, values: readonly number[]): NumberKind {
  const w = words(name);
  const whole = values.every((v) => Number.isInteger(v));
  if (w.some((x) => SHARE_WORDS.has(x)) || name.includes('%')) return 'share';
  if (w.some((x) => COUNTING_WORDS.has(x))) return 'amount';
  if (w.some((x) => YEAR_WORDS.has(x)) && values.every((v) => v >= 1000 && v <= 2999)) return 'year';
  // The last word names what a value is: `order_id` is an id, `id_count` a count.
  if (ID_WORDS.has(w[w.length - 1] ?? '') && whole) return 'id';
  if (whole || w.some((x) => AMOUNT_WORDS.has(x))) return 'amount';
  return carriedDecimals(values, 3) > 2 ? 'measurement' : 'amount';
}

/** How a column of `kind` with these values is shown. */
export function styleFor(kind: NumberKind, values: readonly number[]): NumberStyle {
  const finite = values.filter(Number.isFinite);
  const typical = typicalSize(finite);
  const carried = carriedDecimals(finite, MAX_DECIMALS);
  switch (kind) {
    case 'year':
      return { kind, decimals: Math.min(1, carried), grouped: false };
    case 'id':
      return { kind, decimals: carried, grouped: false };
    case 'amount':
      return { kind, decimals: carried === 0 ? 0 : typical >= 1 ? 2 : Math.min(carried, significantDecimals(typical, 2)), grouped: true };
    case 'share':
      return { kind, decimals: Math.min(carried, typical >= 1 ? 1 : significantDecimals(typical, 2)), grouped: true };
    case 'measurement':
      return { kind, decimals: Math.min(carried, significantDecimals(typical, 2)), grouped: true };
  }
}

/** The style of a column called `name` holding `values`. */
export function columnStyle(name: string, values: readonly number[]): NumberStyle {
  const finite = values.filter(Number.isFinite);
  return styleFor(numberKind(name, finite), finite);
}

const formats = new Map<string, Intl.NumberFormat>();

function formatOf(decimals: number, grouped: boolean): Intl.NumberFormat {
  const key = `${decimals}|${grouped}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped });
    formats.set(key, f);
  }
  return f;
}

/** `v` as the column's style shows it. */
export function formatAs(v: number, style: NumberStyle): string {
  if (!Number.isFinite(v)) return String(v);
  const text = formatOf(style.decimals, style.grouped).format(v);
  // -0.0001 shown with two decimals is "0.00", not "-0.00".
  return /^-[0.,]+$/.test(text) ? text.slice(1) : text;
}

/** True when `v` shown with `style` is not its exact value (float noise aside). */
export function isRounded(v: number, style: NumberStyle): boolean {
  return Number.isFinite(v) && Number(v.toFixed(style.decimals)) !== denoised(v);
}

/**
 * A number on its own in prose (a count, a total, a mean), as an amount column holding it would
 * show it: `1,204`, `10,060.30`, `0.03939`.
 */
export function formatNumber(v: number): string {
  return formatAs(v, styleFor('amount', [v]));
}

/**
 * Styles for a numeric column's profile figures: its minimum and maximum show as the column's values
 * would (`2023 to 2024`), its mean with the decimals that column would need to hold it
 * (`mean 2023.5`, `mean 2,514.41`). Non-finite figures are left out of the choice.
 */
export function profileStyles(name: string, min: number, max: number, mean: number): { range: NumberStyle; mean: NumberStyle } {
  const range = [min, max].filter(Number.isFinite);
  const kind = numberKind(name, range);
  return { range: styleFor(kind, range), mean: styleFor(kind, [...range, mean].filter(Number.isFinite)) };
}

/** A percentage in prose (`v` already in percent): `45.5%`, `12%`. */
export function formatPercent(v: number): string {
  return `${formatAs(v, styleFor('share', [Math.round(v * 10) / 10]))}%`;
}
