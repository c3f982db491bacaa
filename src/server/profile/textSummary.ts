/**
 * A short description of a text source (size, headings) and its first passage, until the engine
 * that really retrieves from documents arrives.
 */
import { formatNumber, plural } from './profileSummary';

export interface TextFacts {
  chars: number;
  words: number;
  lines: number;
  headings: string[];
  firstPassage: string;
}

/** Longest first passage quoted. */
const PASSAGE_CHARS = 500;
/** Headings listed before "and N more". */
const HEADINGS_SHOWN = 8;

/** Facts about a document. Markdown headings outside code fences count; front matter is skipped. */
export function textFacts(text: string): TextFacts {
  const lines = text.split(/\r\n|\r|\n/);
  const headings: string[] = [];
  const paragraphs: string[] = [];
  let current: string[] = [];
  let inFence = false;
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, k) => k > 0 && l.trim() === '---');
    if (end > 0) i = end + 1;
  }
  const flush = (): void => {
    if (current.length > 0) paragraphs.push(current.join(' '));
    current = [];
  };
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      flush();
      continue;
    }
    if (inFence) continue;
    const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h?.[1]) {
      headings.push(h[1]);
      flush();
      continue;
    }
    // MDX import/export lines and HTML/JSX-only lines are markup, not prose.
    if (line.trim() === '' || /^(import|export)\s/.test(line) || /^\s*<[^>]*>\s*$/.test(line)) {
      flush();
      continue;
    }
    current.push(line.trim());
  }
  flush();
  const words = text.split(/\s+/).filter((w) => w.length > 0).length;
  return { chars: text.length, words, lines: lines.length, headings, firstPassage: paragraphs[0] ?? '' };
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const space = slice.lastIndexOf(' ');
  return `${(space > max * 0.6 ? slice.slice(0, space) : slice).trimEnd()}…`;
}

/** The Markdown section about one text source. */
export function textSection(label: string, facts: TextFacts): string {
  const lines = [
    `**${label.replace(/[*_[\]]/g, '\\$&')}**: text document, ${plural(facts.chars, 'character')}, ${plural(facts.words, 'word')}, ${plural(facts.lines, 'line')}.`,
  ];
  if (facts.headings.length > 0) {
    const shown = facts.headings.slice(0, HEADINGS_SHOWN).map((h) => cut(h.replace(/[\r\n]+/g, ' '), 80));
    const more = facts.headings.length - shown.length;
    lines.push(`- Headings (${formatNumber(facts.headings.length)}): ${shown.join(' · ')}${more > 0 ? ` · and ${more} more` : ''}`);
  }
  if (facts.firstPassage) lines.push('', 'First passage:', '', `> ${cut(facts.firstPassage, PASSAGE_CHARS)}`);
  return lines.join('\n');
}
