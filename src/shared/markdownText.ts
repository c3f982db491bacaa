/**
 * Text that comes from data (cell values, file and sheet names) placed inside Markdown prose. It
 * must read as the literal text: `**x**` in a cell is not bold, `<img onerror=…>` is not HTML,
 * `[x](javascript:…)` is not a link, and a file named `<svg>.csv` still shows its whole name.
 * CommonMark lets any ASCII punctuation be escaped with a backslash, so the characters that start
 * emphasis, code, links, images, HTML, entities, tables, strikethrough or headings are escaped,
 * and line breaks become spaces so a value cannot start a list or a heading.
 */
export function mdText(text: string): string {
  return text.replace(/[\\`*_[\]<>|#~&!]/g, '\\$&').replace(/[\r\n\u2028\u2029]+/g, ' ');
}
