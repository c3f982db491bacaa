/**
 * Sizes of result values, so a query's rows are capped by bytes as well as by count: ten thousand
 * rows of one megabyte each (`SELECT repeat('x', 1000000) FROM range(10000)`) took the service to
 * 10 GB while the row cap waited for row 10,001. Sizes are what the value costs as text (a string's
 * length, a number's few bytes), counted with an early stop so measuring a huge value stays cheap.
 */
import type { PlainValue } from './plainValues';

/** What a scalar costs besides strings: numbers, booleans and nulls as a few bytes of text. */
const SCALAR_BYTES = 8;

/** The size of `v` as text, counted up to a little past `limit` (bigger values report > limit). */
export function plainSize(v: PlainValue, limit: number): number {
  if (typeof v === 'string') return v.length;
  if (v === null || typeof v !== 'object') return SCALAR_BYTES;
  let size = 2;
  const parts: Iterable<[string | number, PlainValue]> = Array.isArray(v) ? v.entries() : Object.entries(v);
  for (const [k, x] of parts) {
    size += 1 + (typeof k === 'string' ? k.length + 3 : 0) + plainSize(x, limit - size);
    if (size > limit) return size;
  }
  return size;
}

/** JSON text of `v`, cut after about `limit` characters (with `…`), never built whole first. */
function boundedJson(v: PlainValue, limit: number): string {
  const out: string[] = [];
  let used = 0;
  const put = (s: string): boolean => {
    out.push(s.length > limit - used ? s.slice(0, Math.max(0, limit - used)) : s);
    used += s.length;
    return used < limit;
  };
  const walk = (x: PlainValue): boolean => {
    if (x === null || typeof x !== 'object') return put(typeof x === 'string' && x.length > limit ? JSON.stringify(x.slice(0, limit)) : JSON.stringify(x));
    const isArray = Array.isArray(x);
    if (!put(isArray ? '[' : '{')) return false;
    let first = true;
    for (const [k, y] of isArray ? x.entries() : Object.entries(x)) {
      if (!first && !put(',')) return false;
      first = false;
      if (!isArray && !put(`${JSON.stringify(k)}:`)) return false;
      if (!walk(y)) return false;
    }
    return put(isArray ? ']' : '}');
  };
  return walk(v) ? out.join('') : `${out.join('')}…`;
}

/**
 * `v` cut to about `limit` characters: a string keeps its start, a nested value becomes the start of
 * its JSON text. Both end with `…`, so a reader of the table sees that the cell was cut.
 */
export function cutValue(v: PlainValue, limit: number): string {
  if (typeof v === 'string') return `${v.slice(0, limit)}…`;
  return boundedJson(v, limit);
}
