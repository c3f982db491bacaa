/**
 * SQL text helpers. Every identifier and literal that reaches DuckDB goes through these, because
 * column names come from users' files (spaces, quotes, unicode) and source ids from the HTTP layer.
 */

/** Quotes an identifier: `a "b"` -> `"a ""b"""`. Safe for any string without NUL. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/\u0000/g, '').replace(/"/g, '""')}"`;
}

/** Quotes a string literal: `it's` -> `'it''s'`. */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/\u0000/g, '').replace(/'/g, "''")}'`;
}

/** A table name quoted, or a parenthesised query (a wide table read long) as it is. */
export function relationSql(table: string): string {
  return table.startsWith('(') ? table : quoteIdent(table);
}

/** Lower-case ASCII slug of at most `max` characters (`[a-z0-9_]`), never empty. */
export function slug(text: string, max: number): string {
  const s = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max);
  return s.length > 0 ? s : 'x';
}

/** FNV-1a 32-bit hash as 8 hex digits: short and stable, only used to keep slugs distinct. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

const TABLE_PREFIX = 'src_';

/**
 * The table-name prefix of a data source. A slug alone could collide (`a-b` and `a_b`), so the
 * hash of the raw id is appended whenever the slug is not the id itself.
 */
export function tablePrefixFor(sourceId: string): string {
  const s = slug(sourceId, 40);
  return s === sourceId ? `${TABLE_PREFIX}${s}` : `${TABLE_PREFIX}${s}_${shortHash(sourceId)}`;
}

/**
 * Table name for one table of a source. Single-table sources (CSV, JSON) use the prefix itself;
 * spreadsheets add the sheet position (unique) and a readable slug of the sheet name.
 */
export function tableNameFor(sourceId: string, sheet?: { index: number; name: string }): string {
  const prefix = tablePrefixFor(sourceId);
  return sheet === undefined ? prefix : `${prefix}__${sheet.index + 1}_${slug(sheet.name, 30)}`;
}

/** True when `table` was made from the source with this prefix (used to sweep leftovers). */
export function belongsToPrefix(table: string, prefix: string): boolean {
  return table === prefix || table.startsWith(`${prefix}__`);
}

/** Matches SQL naming one of the source's tables (its prefix, alone or before `__`). */
export function mentionsSource(sourceId: string): RegExp {
  const prefix = tablePrefixFor(sourceId).replace(/[^A-Za-z0-9_]/g, (c) => `\\${c}`);
  return new RegExp(`(^|[^A-Za-z0-9_])${prefix}(__|[^A-Za-z0-9_]|$)`);
}
