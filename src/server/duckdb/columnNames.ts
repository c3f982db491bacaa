/**
 * Column names from header cells, kept as the user wrote them (spaces, unicode, punctuation are
 * fine: every identifier is quoted) but made usable: trimmed, never empty, unique. DuckDB
 * identifiers are case-insensitive, so `Name` and `name` count as a clash.
 */

/** Longest name kept; longer headers are cut (a paragraph in a header cell is not a name). */
const MAX_NAME_LENGTH = 120;

/**
 * One unique name per position. `raw[i]` may be missing or blank; such columns are called
 * `column<i+1>` (1-based, like spreadsheet users count). Clashes get `_2`, `_3`, ... appended.
 */
export function uniqueColumnNames(raw: ReadonlyArray<string | undefined>, width = raw.length): string[] {
  const used = new Set<string>();
  const out: string[] = [];
  for (let i = 0; i < width; i++) {
    const cleaned = (raw[i] ?? '')
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_NAME_LENGTH);
    const base = cleaned.length > 0 ? cleaned : `column${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    used.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}
