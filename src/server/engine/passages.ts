/**
 * Cuts a document's text into passages for retrieval, keeping its section structure: each passage
 * knows its page (or slide) and the headings it sits under, and starts at a heading, a paragraph
 * or a sentence end, never in the middle of a line. Headings are Markdown `#` lines (the stored
 * text of Word and PowerPoint files writes them so, see documentIngest.ts) or, in plain text such
 * as PDF, numbered section lines ("3.4.2. Requirements", "Chapter 3. The Root Filesystem").
 */

export interface Chunk {
  id: number;
  /** 1-based page or slide, for paged documents. */
  page?: number;
  /** The nearest heading above the passage. */
  heading?: string;
  /** The headings above the passage, outermost first (the nearest one last). */
  path: string[];
  /** The passage's lines, without its heading. */
  text: string;
}

const TARGET_CHARS = 800;
const MAX_CHARS = 1200;
/** Longest line repeated at the start of the next passage of the same paragraph. */
const CARRY_CHARS = 300;

const MD_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
/** "3.4.2. Requirements", "2.1 Scope": two or more number parts, then a title-like text. */
const NUMBERED_HEADING = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s+([\p{Lu}/][^\n]{0,80})$/u;
const CHAPTER_HEADING = /^(?:chapter|section|part|appendix)\s+[\dA-Z]{1,3}\.?\s+(\p{Lu}[^\n]{0,80})$/iu;
const LIST_ITEM = /^(?:[-*+•]|\d{1,3}[.)])\s/;

interface Heading {
  level: number;
  text: string;
}

/** The heading a line is, if any. Plain-text headings never end like a sentence. */
export function headingOf(line: string): Heading | undefined {
  const md = MD_HEADING.exec(line);
  if (md) return { level: (md[1] ?? '#').length, text: (md[2] ?? '').trim() };
  if (/[.,;:!?]$/.test(line) || line.length > 100) return undefined;
  const numbered = NUMBERED_HEADING.exec(line);
  if (numbered) return { level: (numbered[1] ?? '').split('.').length, text: line };
  if (CHAPTER_HEADING.test(line)) return { level: 1, text: line };
  return undefined;
}

/** Splits a long line at sentence ends (and, for a sentence longer than the limit, anywhere). */
function splitLong(line: string): string[] {
  if (line.length <= MAX_CHARS) return [line];
  const out: string[] = [];
  let cur = '';
  for (const s of line.split(/(?<=[.!?])\s+/)) {
    if (cur.length > 0 && cur.length + s.length > TARGET_CHARS) {
      out.push(cur);
      cur = '';
    }
    cur += (cur ? ' ' : '') + s;
    while (cur.length > MAX_CHARS) {
      out.push(cur.slice(0, MAX_CHARS));
      cur = cur.slice(MAX_CHARS);
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Passages of a document, with page numbers when the text has page breaks (form feeds). */
export function chunkText(text: string): Chunk[] {
  const pages = text.split('\f');
  const paged = pages.length > 1;
  const out: Chunk[] = [];
  let stack: Heading[] = [];
  let fence = false;
  /** The last line was a plain-text heading that may go on on the next line. */
  let open = false;
  pages.forEach((page, pi) => {
    let cur = '';
    let last = '';
    const flush = (): void => {
      const t = cur.trim();
      if (t) {
        const c: Chunk = { id: out.length, text: t, path: stack.map((h) => h.text) };
        if (paged) c.page = pi + 1;
        const nearest = stack[stack.length - 1];
        if (nearest) c.heading = nearest.text;
        out.push(c);
      }
      cur = '';
    };
    for (const para of page.split(/\n[ \t]*\n/)) {
      let first = true;
      for (const rawLine of para.split('\n')) {
        const line = rawLine.replace(/[ \t]+/g, ' ').trim();
        if (!line) continue;
        if (/^(`{3,}|~{3,})/.test(line)) fence = !fence;
        const h = fence ? undefined : headingOf(line);
        if (h) {
          flush();
          stack = [...stack.filter((s) => s.level < h.level), h];
          open = !MD_HEADING.test(line);
          continue;
        }
        // A PDF heading too long for its line goes on in lower case on the next one ("... (for" /
        // "use by all users)"): that line belongs to the heading, not to the passage below it.
        const top = stack[stack.length - 1];
        if (open && top && cur === '' && line.length <= 60 && /^\p{Ll}/u.test(line)) {
          stack = [...stack.slice(0, -1), { ...top, text: `${top.text} ${line}` }];
          open = false;
          continue;
        }
        open = false;
        for (const piece of splitLong(line)) {
          // A new passage starts at a paragraph, a list item or after a sentence end: not mid-sentence.
          const boundary = first || LIST_ITEM.test(piece) || /[.:;!?)]$/.test(cur);
          if (!fence && cur.length > 0 && ((boundary && cur.length + piece.length > TARGET_CHARS) || cur.length > MAX_CHARS)) {
            // Inside a paragraph (a PDF page, a slide) the line before the cut starts the next
            // passage too: a term and its explanation on two lines stay together in one of them.
            const carry = !first && last.length <= CARRY_CHARS ? last : '';
            flush();
            cur = carry;
          }
          cur += cur ? (first ? '\n\n' : '\n') : '';
          cur += piece;
          last = piece;
          first = false;
        }
      }
    }
    flush();
  });
  return out;
}
