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

/** `title`, or `title (2)`, `title (3)`… when sessions already carry it, so two sessions never share a name. */
export function uniqueTitle(title: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(title)) return title;
  for (let n = 2; ; n++) {
    const candidate = `${title} (${n})`;
    if (!used.has(candidate)) return candidate;
  }
}
