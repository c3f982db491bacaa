/**
 * Markdown summary and follow-up questions from computed profiles. Every number printed here comes
 * from the profile query results; this module only chooses what is worth saying and formats it.
 */
import { mdText } from '../../shared/markdownText';
import { formatNumber } from '../../shared/numberFormat';
import { profileFigures } from './profileFigures';
import type { ColumnClass } from './profileSql';

export interface ColumnProfile {
  name: string;
  type: string;
  cls: ColumnClass;
  nonNull: number;
  nulls: number;
  /** Undefined when not counted (a one-pass overview of a file read in place: see scanStats.ts). */
  distinct?: number;
  min: string | null;
  max: string | null;
  mean: string | null;
  top: string | null;
  /** `top` lists frequent values without counts, from a bounded summary rather than an exact count. */
  topApproximate?: boolean;
}

export interface TableProfile {
  /** What users call it: `sales.csv`, or `report.xlsx, sheet Q1`. */
  label: string;
  rowCount: number;
  /** Undefined when the duplicate check could not run for this table's column types. */
  duplicateRows?: number;
  /** All columns of the table (the profile may cover fewer). */
  columnCount: number;
  columns: ColumnProfile[];
}

/** Items listed per bullet before "and N more". */
const LIST_LIMIT = 6;

/** A number for prose: the shared rule (src/shared/numberFormat.ts), re-exported for the engine's prose. */
export { formatNumber };

/** A count with its noun: `1 row`, `1,204 rows`. */
export function plural(n: number, noun: string): string {
  return `${formatNumber(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** Inline code that survives any content (backticks inside get a longer fence). */
function code(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${clean} ${fence}` : `${fence}${clean}${fence}`;
}

/** A bullet with one nested item per entry, at most {@link LIST_LIMIT} of them. */
function bullet(title: string, items: string[]): string[] {
  const shown = items.slice(0, LIST_LIMIT).map((i) => `  - ${i}`);
  if (items.length > LIST_LIMIT) shown.push(`  - and ${formatNumber(items.length - LIST_LIMIT)} more`);
  return [`- ${title}:`, ...shown];
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}

function textLine(c: ColumnProfile): string {
  if (c.distinct === undefined) return `${code(c.name)}: more than 50 distinct values${c.top ? `; frequent values include ${mdText(c.top)}` : ''}`;
  const label = c.topApproximate === true ? 'by frequency' : 'most common';
  return `${code(c.name)}: ${plural(c.distinct, 'distinct value')}${c.top ? `; ${label}: ${mdText(c.top)}` : ''}`;
}

/** The Markdown section about one table. */
export function tableSection(p: TableProfile): string {
  const lines: string[] = [];
  lines.push(`**${mdText(p.label)}**: ${plural(p.rowCount, 'row')}, ${plural(p.columnCount, 'column')}.`);
  if (p.columns.length < p.columnCount) lines.push(`- Profiled the first ${formatNumber(p.columns.length)} columns.`);
  const numeric = p.columns.filter((c) => c.cls === 'numeric' && c.nonNull > 0);
  if (numeric.length > 0) {
    lines.push(...bullet('Numbers', numeric.map((c) => {
      const f = profileFigures(c);
      return `${code(c.name)}: ${f.min} to ${f.max}, mean ${f.mean}`;
    })));
  }
  const temporal = p.columns.filter((c) => c.cls === 'temporal' && c.nonNull > 0);
  if (temporal.length > 0) lines.push(...bullet('Dates', temporal.map((c) => `${code(c.name)}: ${mdText(c.min ?? '')} to ${mdText(c.max ?? '')}`)));
  const text = p.columns.filter((c) => c.cls === 'text' && c.nonNull > 0);
  if (text.length > 0) {
    lines.push(...bullet('Text', text.map(textLine)));
  }
  const withNulls = p.columns.filter((c) => c.nulls > 0).sort((a, b) => b.nulls - a.nulls);
  if (withNulls.length === 0) lines.push('- No missing values.');
  else lines.push(...bullet('Missing values', withNulls.map((c) => `${code(c.name)}: ${formatNumber(c.nulls)} (${percent(c.nulls, p.rowCount)})`)));
  const unique = p.columns.filter((c) => p.rowCount > 1 && c.distinct === p.rowCount && c.nulls === 0);
  if (p.columns.some((c) => c.distinct === undefined)) {
    lines.push('- Read in one pass over the file: distinct counts above 50 and duplicate rows were not counted; ask for them by name (for example "how many distinct …") to get exact numbers.');
  }
  if (unique.length > 0) lines.push(`- Unique in every row (possible keys): ${unique.slice(0, LIST_LIMIT).map((c) => code(c.name)).join(', ')}${unique.length > LIST_LIMIT ? ', ...' : ''}`);
  if (p.duplicateRows !== undefined) {
    lines.push(p.duplicateRows === 0
      ? '- No duplicate rows.'
      : `- Duplicate rows: ${plural(p.duplicateRows, 'row')} ${p.duplicateRows === 1 ? 'repeats' : 'repeat'} an earlier row exactly.`);
  }
  return lines.join('\n');
}

/** Splits Markdown into fragments at line ends, as a streamed answer arrives. Concatenation is lossless. */
export function fragments(markdown: string, maxChars = 240): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of markdown.split(/(?<=\n)/)) {
    if (current.length > 0 && current.length + line.length > maxChars) {
      out.push(current);
      current = '';
    }
    current += line;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function pickCategory(p: TableProfile): ColumnProfile | undefined {
  return p.columns.find((c) => c.cls === 'text' && c.distinct !== undefined && c.distinct >= 2 && c.distinct <= 50 && c.distinct < p.rowCount);
}

function pickMeasure(p: TableProfile): ColumnProfile | undefined {
  const numeric = p.columns.filter((c) => c.cls === 'numeric' && c.nonNull > 0);
  // A column unique in every row is more likely an id than a measure.
  return numeric.find((c) => (c.distinct === undefined || c.distinct < p.rowCount) && !/(^|_|\b)id$/i.test(c.name)) ?? numeric[0];
}

/** Three follow-up questions built from the schema of the profiled tables (largest first). */
export function followUpQuestions(profiles: readonly TableProfile[], textLabels: readonly string[] = []): string[] {
  const out: string[] = [];
  const add = (q: string): void => {
    if (!out.includes(q)) out.push(q);
  };
  const sorted = [...profiles].sort((a, b) => b.rowCount - a.rowCount);
  for (const p of sorted) {
    const measure = pickMeasure(p);
    const category = pickCategory(p);
    const date = p.columns.find((c) => /^(DATE|TIMESTAMP)/i.test(c.type) && c.nonNull > 0);
    if (date && measure) add(`How does the total ${measure.name} change per month of ${date.name}?`);
    if (category && measure) add(`Which ${category.name} has the highest average ${measure.name}?`);
    if (measure) add(`Are there outliers in ${measure.name}?`);
    if (category) add(`What share of rows does each ${category.name} account for?`);
    const gap = p.columns.filter((c) => c.nulls > 0).sort((a, b) => b.nulls - a.nulls)[0];
    if (gap) add(`Is there a pattern in the rows where ${gap.name} is missing?`);
  }
  if (sorted.length >= 2 && sorted[0] && sorted[1]) add(`How can ${sorted[0].label} and ${sorted[1].label} be joined?`);
  for (const label of textLabels) {
    add(`What are the main points of ${label}?`);
    add(`Which action items or decisions does ${label} contain?`);
  }
  for (const p of sorted) add(`Show 10 sample rows of ${p.label}.`);
  add('Which columns are related to each other?');
  return out.slice(0, 3);
}
