/**
 * "Copy with Headers" (exact values) and "Copy as Shown with Headers": tab-separated text that spreadsheets paste into cells. A cell holding a
 * tab, newline or quote is quoted with doubled quotes, which Excel, LibreOffice and Google
 * Sheets all read back as one cell.
 */
function tsvCell(cell: string): string {
  return /[\t\r\n"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** `shown` turns a row's cell into what the grid displays (rounded numbers); without it cells are copied exactly as stored. */
export function toTsv(header: readonly string[], rows: readonly (readonly string[])[], order?: ArrayLike<number>, shown?: (row: readonly string[], column: number) => string): string {
  const lines: string[] = [header.map(tsvCell).join('\t')];
  const n = order ? order.length : rows.length;
  for (let i = 0; i < n; i++) {
    const row = rows[order ? (order[i] as number) : i] ?? [];
    const cells: string[] = [];
    for (let c = 0; c < header.length; c++) cells.push(tsvCell(shown ? shown(row, c) : row[c] ?? ''));
    lines.push(cells.join('\t'));
  }
  return `${lines.join('\n')}\n`;
}
