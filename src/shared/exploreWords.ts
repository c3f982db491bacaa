/**
 * The Data Explorer's filters in the local engine's own words (issue 27, "Ask about this view"):
 * the phrases its grammar writes in a reading line (server/engine/writer.ts `writeFilter`) and so
 * reads back exactly — `where \`col\` is "a" or "b"`, `where \`col\` between 1 and 5`,
 * `where \`col\` is missing`, `with known \`col\``. Appended to a question, they make the engine
 * answer about the rows the view shows, and its reading line then states them.
 *
 * A filter the grammar has no words for (starts with, a regular expression, a time of day) is
 * returned in `unstated`, and so is "contains": the view matches any part of a value ("lat" in
 * "Plateau") while the engine's "contains" matches whole words, so the same words would count other
 * rows than the view shows. Each is named in plain words, so the caller can say so instead of
 * asking about other rows than the view shows without a word.
 */
import type { ExploreColumn, ExploreFilter } from './explore';

export interface FilterWords {
  /** The stated filters joined by " and " (empty without any). */
  words: string;
  /** Filters the grammar cannot state, each described for a message. */
  unstated: string[];
}

const tick = (name: string): string => `\`${name}\``;
const quote = (value: string): string => `"${value}"`;
const num = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12))));
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The day after an ISO day (the grammar's "before" is exclusive). */
function nextDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** How a filter is named in a message ("`name` starts with "A""). */
export function describeFilter(f: ExploreFilter): string {
  switch (f.op) {
    case 'contains':
    case 'startsWith':
    case 'regex': {
      const verb = f.op === 'contains' ? 'contains' : f.op === 'startsWith' ? 'starts with' : 'matches the regular expression';
      const why = f.op === 'contains' ? ' (the engine matches whole words only)' : '';
      return `${tick(f.column)} ${f.negate === true ? 'not ' : ''}${verb} ${quote(f.text)}${f.caseSensitive === true ? ' (case-sensitive)' : ''}${why}`;
    }
    case 'between':
      return `${tick(f.column)} between ${f.min ?? '…'} and ${f.max ?? '…'}`;
    case 'in':
      return `${tick(f.column)} ${f.negate === true ? 'not ' : ''}in ${f.values.map(quote).join(', ')}`;
    case 'missing':
      return `${tick(f.column)} ${f.negate === true ? 'is known' : 'is missing'}`;
  }
}

/** Words the grammar reads as written: no backtick in a name, no double quote in a value. */
const sayable = (column: string, values: readonly string[] = []): boolean =>
  !column.includes('`') && column.trim() === column && column !== '' && values.every((v) => !v.includes('"') && v.trim() !== '');

function between(f: Extract<ExploreFilter, { op: 'between' }>, kind: ExploreColumn['kind']): string | undefined {
  const c = tick(f.column);
  if (kind === 'number') {
    const lo = typeof f.min === 'number' ? f.min : f.min !== undefined && NUMBER.test(f.min) ? Number(f.min) : f.min === undefined ? undefined : NaN;
    const hi = typeof f.max === 'number' ? f.max : f.max !== undefined && NUMBER.test(f.max) ? Number(f.max) : f.max === undefined ? undefined : NaN;
    if (Number.isNaN(lo) || Number.isNaN(hi)) return undefined;
    if (lo !== undefined && hi !== undefined) return `where ${c} between ${num(lo)} and ${num(hi)}`;
    if (lo !== undefined) return `where ${c} >= ${num(lo)}`;
    if (hi !== undefined) return `where ${c} <= ${num(hi)}`;
    return undefined;
  }
  if (kind === 'date' || kind === 'datetime') {
    // Days only: the grammar has no words for a time of day.
    const day = (v: number | string | undefined): string | undefined | null => (v === undefined ? undefined : typeof v === 'string' && ISO_DAY.test(v) ? v : null);
    const from = day(f.min);
    const to = day(f.max);
    if (from === null || to === null) return undefined;
    if (from !== undefined && to !== undefined) return `${c} from ${from} to ${to}`;
    if (from !== undefined) return `${c} since ${from}`;
    if (to !== undefined) return `${c} before ${nextDay(to)}`;
  }
  return undefined;
}

/** One filter in the grammar's words, or undefined when it has none for it. */
export function filterPhrase(f: ExploreFilter, columns: readonly ExploreColumn[]): string | undefined {
  const kind = columns.find((c) => c.name === f.column)?.kind ?? 'other';
  const c = tick(f.column);
  switch (f.op) {
    case 'contains':
    case 'startsWith':
    case 'regex':
      return undefined;
    case 'between':
      return sayable(f.column) ? between(f, kind) : undefined;
    case 'in':
      if (f.values.length === 0 || !sayable(f.column, f.values)) return undefined;
      // Numbers of a numeric column are said as numbers ("`items` = 3 or 4"), as the grammar reads them.
      if (kind === 'number') {
        if (f.negate === true || !f.values.every((v) => NUMBER.test(v.trim()))) return undefined;
        return `where ${c} = ${f.values.map((v) => num(Number(v))).join(' or ')}`;
      }
      return `where ${c} is ${f.negate === true ? 'not ' : ''}${f.values.map(quote).join(' or ')}`;
    case 'missing':
      if (!sayable(f.column)) return undefined;
      return f.negate === true ? `with known ${c}` : `where ${c} is missing`;
  }
}

/** The view's filters as words to append to a question, and those that have none. */
export function filterWords(filters: readonly ExploreFilter[], columns: readonly ExploreColumn[]): FilterWords {
  const said: string[] = [];
  const unstated: string[] = [];
  for (const f of filters) {
    const w = filterPhrase(f, columns);
    if (w === undefined) unstated.push(describeFilter(f));
    else said.push(w);
  }
  return { words: said.join(' and '), unstated };
}

/** The question with the view's filters appended (a final "?" or "." moved after them). */
export function questionWithFilters(question: string, words: string): string {
  const q = question.trim();
  if (words === '') return q;
  const end = /[?.!]+$/.exec(q)?.[0] ?? '';
  return `${q.slice(0, q.length - end.length).trimEnd()} ${words}${end}`;
}
