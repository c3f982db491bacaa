/**
 * What the filter bar offers per column kind, and how a form's raw input becomes an
 * {@link ExploreFilter} — or the reason it cannot, shown on the input before anything is sent.
 * Pure (no DOM), so it is tested directly as well as through the page.
 */
import { EXPLORE_LIMITS, type ExploreFilter, type ExploreKind } from '../../shared/explore';

export type FilterOp = ExploreFilter['op'];

export const OP_LABEL: Record<FilterOp, string> = {
  contains: 'contains',
  startsWith: 'starts with',
  regex: 'matches regex',
  between: 'between',
  in: 'is one of',
  missing: 'is missing',
};

/** Type-aware choices: text gets the text matches, numbers and dates get ranges. */
export function opsFor(kind: ExploreKind): FilterOp[] {
  switch (kind) {
    case 'text':
      return ['contains', 'startsWith', 'regex', 'in', 'missing'];
    case 'number':
      return ['between', 'in', 'missing'];
    case 'date':
    case 'datetime':
      return ['between', 'missing'];
    default:
      return ['in', 'missing'];
  }
}

/** A range has no "not" (its complement is two ranges); every other condition may be negated. */
export function canNegate(op: FilterOp): boolean {
  return op !== 'between';
}

/** The filter form's fields as typed. */
export interface FilterInput {
  column: string;
  kind: ExploreKind;
  op: FilterOp;
  text: string;
  min: string;
  max: string;
  caseSensitive: boolean;
  negate: boolean;
}

export type Built = { ok: true; filter: ExploreFilter } | { ok: false; field: 'text' | 'min' | 'max'; message: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function parseBound(raw: string, kind: ExploreKind): { ok: true; value?: number | string } | { ok: false; message: string } {
  const s = raw.trim();
  if (s === '') return { ok: true };
  if (kind === 'number') {
    const n = Number(s.replace(/_/g, ''));
    return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: `"${s}" is not a number` };
  }
  if (!ISO_DATE.test(s) || Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s.replace(' ', 'T')))) {
    return { ok: false, message: `"${s}" is not a date (write 2024-01-31 or 2024-01-31T08:00)` };
  }
  return { ok: true, value: s };
}

/** Splits an "in list" entry: one value per line, or comma-separated on one line. */
export function splitValues(raw: string): string[] {
  const parts = raw.includes('\n') ? raw.split('\n') : raw.split(',');
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
}

export function buildFilter(f: FilterInput): Built {
  const negate = canNegate(f.op) && f.negate ? { negate: true } : {};
  switch (f.op) {
    case 'contains':
    case 'startsWith':
    case 'regex': {
      if (f.text === '') return { ok: false, field: 'text', message: 'Type the text to look for' };
      if (f.text.length > EXPLORE_LIMITS.text) return { ok: false, field: 'text', message: `At most ${EXPLORE_LIMITS.text} characters` };
      if (f.op === 'regex') {
        try {
          new RegExp(f.text);
        } catch (err) {
          return { ok: false, field: 'text', message: `Not a regular expression: ${err instanceof Error ? err.message : String(err)}` };
        }
      }
      return { ok: true, filter: { column: f.column, op: f.op, text: f.text, ...(f.caseSensitive ? { caseSensitive: true } : {}), ...negate } };
    }
    case 'between': {
      const lo = parseBound(f.min, f.kind);
      if (!lo.ok) return { ok: false, field: 'min', message: lo.message };
      const hi = parseBound(f.max, f.kind);
      if (!hi.ok) return { ok: false, field: 'max', message: hi.message };
      if (lo.value === undefined && hi.value === undefined) return { ok: false, field: 'min', message: 'Give a lower or an upper bound' };
      if (lo.value !== undefined && hi.value !== undefined && lo.value > hi.value) {
        return { ok: false, field: 'max', message: 'The upper bound is below the lower one' };
      }
      return { ok: true, filter: { column: f.column, op: 'between', ...(lo.value !== undefined ? { min: lo.value } : {}), ...(hi.value !== undefined ? { max: hi.value } : {}) } };
    }
    case 'in': {
      const values = splitValues(f.text);
      if (values.length === 0) return { ok: false, field: 'text', message: 'List at least one value' };
      if (values.length > EXPLORE_LIMITS.inValues) return { ok: false, field: 'text', message: `At most ${EXPLORE_LIMITS.inValues} values` };
      if (f.kind === 'number') {
        const bad = values.find((v) => !Number.isFinite(Number(v)));
        if (bad !== undefined) return { ok: false, field: 'text', message: `"${bad}" is not a number` };
      }
      return { ok: true, filter: { column: f.column, op: 'in', values, ...negate } };
    }
    case 'missing':
      return { ok: true, filter: { column: f.column, op: 'missing', ...negate } };
  }
}

/** One line a person reads on the filter's chip and a screen reader announces. */
export function describeFilter(f: ExploreFilter): string {
  const not = 'negate' in f && f.negate === true;
  switch (f.op) {
    case 'contains':
    case 'startsWith':
    case 'regex':
      return `${f.column} ${not ? 'not ' : ''}${OP_LABEL[f.op]} "${f.text}"${f.caseSensitive ? ' (match case)' : ''}`;
    case 'between':
      if (f.min !== undefined && f.max !== undefined) return `${f.column} between ${f.min} and ${f.max}`;
      return f.min !== undefined ? `${f.column} ≥ ${f.min}` : `${f.column} ≤ ${String(f.max)}`;
    case 'in':
      return `${f.column} ${not ? 'is not one of' : 'is one of'} ${f.values.slice(0, 5).join(', ')}${f.values.length > 5 ? ` (+${f.values.length - 5})` : ''}`;
    case 'missing':
      return `${f.column} ${not ? 'is not missing' : 'is missing'}`;
  }
}
