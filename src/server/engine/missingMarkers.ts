/**
 * Text that means "no value" in exports: R writes `NA`, spreadsheets `#N/A`, databases `NULL`. In a
 * number column such text is not a number and is already left out; in a text column it is read as a
 * value, so "how many rows have no sex" counted 0 where 11 rows said NA. A text column whose values
 * include such markers counts them as missing, and the answer says so.
 */
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import type { ColumnMeta } from './types';

const MARKER = /^(na|n\/a|#n\/a|null|nan|none|-|--|\.|\?)$/i;

/** Lower-case text that means "no value" where a number is expected, as a SQL list. */
export const NULL_MARKER_SQL = ['n/a', 'na', 'n.a.', 'null', 'none', 'nan', '-', '--', '?', 'unknown', 'missing', '#n/a', '.', 'nil', 'not available', 'tbd']
  .map((m) => quoteLiteral(m)).join(', ');

/**
 * The values of a text column that mean "no value". `NA` among two-letter codes (`EU`, `NA`, `AS`)
 * is North America, and `none` among several words is a category ("no discount"): kept as values.
 */
export function nullMarkersOf(values: readonly string[]): string[] {
  const markers = values.filter((v) => MARKER.test(v.trim()) || v.trim() === '');
  if (markers.length === 0) return [];
  const others = values.filter((v) => !markers.includes(v));
  const codes = others.length >= 2 && others.every((v) => /^[A-Z]{2}$/.test(v.trim()));
  return markers.filter((m) => !(codes && /^[A-Z]{2}$/.test(m.trim())) && !(/^none$/i.test(m.trim()) && others.length >= 2));
}

/**
 * SQL true when the column holds a value (not NULL, and not one of its markers). `x` is the column
 * as stored; for numbers written as text ("1,234", "NA") empty text and the markers are missing too.
 */
export function presentSql(column: ColumnMeta, x: string): string {
  if (column.converted && column.kind === 'numeric' && x === quoteIdent(column.name)) {
    return `(${x} IS NOT NULL AND trim(CAST(${x} AS VARCHAR)) <> '' AND lower(trim(CAST(${x} AS VARCHAR))) NOT IN (${NULL_MARKER_SQL}))`;
  }
  const markers = column.nullMarkers ?? [];
  if (markers.length === 0) return `${x} IS NOT NULL`;
  return `(${x} IS NOT NULL AND trim(${x}) NOT IN (${markers.map((m) => quoteLiteral(m.trim())).join(', ')}))`;
}

/** " (empty, or NA)" after "is missing", when markers count as missing. */
export function markersNote(column: ColumnMeta): string {
  const markers = (column.nullMarkers ?? []).map((m) => (m.trim() === '' ? 'empty' : m.trim()));
  return markers.length === 0 ? '' : ` (${markers.join(' or ')} counted as missing)`;
}
