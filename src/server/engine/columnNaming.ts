/**
 * How the engine names and types a table's columns: the SQL spelling of a name, its singular words
 * (what questions match), and the kind of a DuckDB type.
 */
import { quoteIdent } from '../duckdb/sqlText';
import { identifierWords, singular } from '../language/words';
import { classifyType } from '../profile/profileSql';
import type { ColumnKind } from './types';

/** SQL keywords a bare identifier or a table alias must not be. */
export const RESERVED = new Set([
  'all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc', 'both', 'case', 'cast', 'check', 'collate', 'column',
  'constraint', 'create', 'default', 'desc', 'distinct', 'do', 'else', 'end', 'except', 'false', 'fetch', 'for',
  'foreign', 'from', 'grant', 'group', 'having', 'in', 'initially', 'intersect', 'into', 'lateral', 'leading', 'limit',
  'not', 'null', 'offset', 'on', 'only', 'or', 'order', 'placing', 'primary', 'references', 'returning', 'select',
  'some', 'symmetric', 'table', 'then', 'to', 'trailing', 'true', 'union', 'unique', 'user', 'using', 'variadic',
  'when', 'where', 'window', 'with', 'pivot', 'unpivot', 'qualify', 'describe', 'show', 'summarize', 'values',
]);

/** An identifier as SQL: bare when it is a plain lower-case word, quoted otherwise. */
export function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : quoteIdent(name);
}

/** The singular words of an identifier (`unitPrices` -> unit, price). */
export function nameTokens(name: string): string[] {
  return identifierWords(name).map(singular);
}

export function kindOf(type: string): ColumnKind {
  if (/^BOOL/i.test(type)) return 'boolean';
  // A UUID (JSON and Parquet readers type ids so) takes no text functions: an identifier, never read as words.
  if (/^UUID$/i.test(type.trim())) return 'other';
  const cls = classifyType(type);
  return cls === 'numeric' ? 'numeric' : cls === 'temporal' ? 'temporal' : cls === 'text' ? 'text' : 'other';
}
