/**
 * RFC 4180 CSV text: fields with a comma, quote, line break or outer whitespace are quoted and inner
 * quotes doubled; lines end with CRLF. Spreadsheet apps and the panel's CSV parser both read it back
 * to the same cells.
 */

/** One field as CSV text. null/undefined are empty; objects are written as JSON. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value) ?? '';
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document with a header line. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(header.map((_h, i) => csvField(row[i])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
