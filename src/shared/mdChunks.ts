/**
 * Splits growing markdown into chunks that render independently, so a streaming MESSAGE re-parses
 * only its unfinished tail each frame and a 1 MB answer costs linear time, not quadratic.
 *
 * A chunk ends before a line that starts a new top-level block after a blank line, outside a
 * fenced code block. List items and indented lines do not start a chunk (a list with blank lines
 * between items stays one list), unless the unfinished text is already large, where bounded work
 * matters more than a loose list rendering as two lists. Because the decision depends only on the
 * text, streaming a message and rendering it at once produce the same chunks (and the same DOM).
 * Known limit: a reference-style link whose definition sits in a later chunk stays unresolved.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])(\s|$)/;
const BLANK = /^[ \t]*\r?$/;
/** Past this many characters of unfinished text, any blank-line boundary outside a fence splits. */
const SOFT_LIMIT = 32 * 1024;

export class MarkdownChunker {
  /** Complete lines (with their newline) of the unfinished chunk. Kept as parts, not one string,
   * so appending never copies the whole unfinished text (V8 flattens a string it searches). */
  private lines: string[] = [];
  private linesLength = 0;
  /** The incomplete last line. */
  private line = '';
  private fence: { char: string; length: number } | undefined;
  private prevBlank = false;

  /** The unfinished text after the last closed chunk. */
  get pending(): string {
    return this.lines.join('') + this.line;
  }

  /** Appends streamed text; returns the chunks it closed, in order. */
  push(text: string): string[] {
    const closed: string[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      const line = this.line + text.slice(from, nl);
      this.line = '';
      from = nl + 1;
      if (this.startsChunk(line, this.linesLength)) {
        closed.push(this.lines.join(''));
        this.lines = [];
        this.linesLength = 0;
      }
      this.track(line);
      this.lines.push(`${line}\n`);
      this.linesLength += line.length + 1;
    }
    this.line += text.slice(from);
    return closed;
  }

  private startsChunk(line: string, start: number): boolean {
    if (this.fence || !this.prevBlank || start === 0 || BLANK.test(line)) return false;
    if (start > SOFT_LIMIT) return true;
    const first = line.charCodeAt(0);
    if (first === 32 || first === 9) return false;
    return !LIST_ITEM.test(line);
  }

  private track(line: string): void {
    if (this.fence) {
      const close = FENCE.exec(line);
      const marker = close?.[1];
      if (marker && marker[0] === this.fence.char && marker.length >= this.fence.length && line.trim() === marker) {
        this.fence = undefined;
      }
      this.prevBlank = false;
      return;
    }
    const open = FENCE.exec(line)?.[1];
    if (open) this.fence = { char: open[0] as string, length: open.length };
    this.prevBlank = BLANK.test(line);
  }
}

/** The chunks of a finished text: the same split a stream of it would produce. */
export function splitMarkdown(text: string): string[] {
  const c = new MarkdownChunker();
  const chunks = c.push(text);
  const rest = c.pending;
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}
