/**
 * Renders a parsed CSV as an aligned plain-text table for the terminal. Wide cells are clipped
 * with an ellipsis so one long value cannot wreck the layout; numbers are right-aligned.
 */
/** A number as written or as shown (`≈` marks a rounded one: see tableCells.ts). */
const NUMERIC = /^≈?[-+]?(\d[\d,]*)(\.\d+)?([eE][-+]?\d+)?%?$/;

/** Display width, counting East Asian wide characters and emoji as two columns. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    w += cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd)) ? 2 : 1;
  }
  return w;
}

/** Service text made safe for one terminal line: line breaks become spaces, control characters go. */
export function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
}

function clip(s: string, max: number): string {
  const clean = oneLine(s);
  if (displayWidth(clean) <= max) return clean;
  let out = '';
  for (const ch of clean) {
    if (displayWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

function pad(s: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return right ? fill + s : s + fill;
}

export interface TextTableOptions {
  maxRows?: number;
  maxCellWidth?: number;
}

/** `rows[0]` is the header. Returns lines without a trailing newline. */
export function renderTextTable(rows: readonly (readonly string[])[], opts: TextTableOptions = {}): string {
  const maxRows = opts.maxRows ?? 20;
  const maxCell = opts.maxCellWidth ?? 40;
  if (rows.length === 0) return '(empty table)';
  const header = (rows[0] ?? []).map((h) => clip(h, maxCell));
  const body = rows.slice(1, 1 + maxRows).map((r) => header.map((_, i) => clip(r[i] ?? '', maxCell)));
  const numeric = header.map((_, i) => body.length > 0 && body.every((r) => r[i] === '' || NUMERIC.test(r[i] ?? '')));
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...body.map((r) => displayWidth(r[i] ?? ''))));
  const line = (cells: string[]): string => cells.map((c, i) => pad(c, widths[i] ?? 0, numeric[i] ?? false)).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)];
  const more = rows.length - 1 - body.length;
  if (more > 0) out.push(`… ${more.toLocaleString('en-US')} more row${more === 1 ? '' : 's'}`);
  return out.join('\n');
}
