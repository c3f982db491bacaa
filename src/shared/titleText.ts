/** Short one-line titles cut where a reader expects: at a word boundary, marked with "…". */

/**
 * `text` with whitespace collapsed, at most `max` characters: cut at the last space past half the
 * length (never inside a word or a number: "…in 202"), with "…" when anything was left out.
 */
export function cutAtWord(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  if (chars.length <= max) return chars.join('');
  const head = chars.slice(0, Math.max(1, max - 1)).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.-]+$/, '')}…`;
}
