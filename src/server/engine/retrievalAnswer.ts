/**
 * Answers from documents: searches the text sources and quotes the most relevant passages, naming
 * each file (and page or slide) in the message and in SOURCES. Never paraphrases beyond the quotes.
 */
import type { SourceRef } from '../../shared/domain';
import type { AnswerContext } from '../engine';
import { sourceRef, type AnswerWriter } from './answerWriter';
import { md } from './describe';
import { RetrievalIndex, type IndexedDocument, type Passage } from './retrieval';

/** A whole passage (passages.ts cuts them at 1200 characters): the answer may be its last line. */
const QUOTE_CHARS = 1300;

export interface RetrievalOutcome {
  found: boolean;
  message: string;
  refs: SourceRef[];
  questions: string[];
}

function where(p: Passage): string {
  const paged = /\.(pdf)$/i.test(p.source.fileName) ? 'page' : /\.(pptx)$/i.test(p.source.fileName) ? 'slide' : 'part';
  return `${md(p.source.fileName)}${p.page !== undefined ? `, ${paged} ${p.page}` : ''}`;
}

/** Files whose text is Markdown; every other text (PDF, Word, PowerPoint, .txt) is plain. */
const MARKDOWN_FILE = /\.(md|mdx|markdown)$/i;
const LIST_MARKER = /^(\d{1,3}[.)]|[-*+•])\s+(.*)$/;

/**
 * A plain-text line as Markdown that shows exactly that text: everything marked would read as
 * markup is escaped, except a leading list marker, so "5. Refunds" stays item 5 of a list.
 */
function plainLine(line: string): string {
  const item = LIST_MARKER.exec(line);
  if (!item) return md(line);
  return `${item[1] === '•' ? '-' : item[1]} ${md(item[2] ?? '')}`;
}

/**
 * The passage as a Markdown block quote that shows it as the document does: its section heading
 * first as a bold line (never a list item: "2. Approvals" is a title, not item 2), then its lines
 * with their own list numbers. A numbered line that follows a sentence gets a blank line before
 * it, since Markdown lets only a list starting at 1 interrupt a paragraph.
 */
export function quote(p: Pick<Passage, 'source' | 'path' | 'text'>): string {
  const cut = p.text.length > QUOTE_CHARS ? `${p.text.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')} …` : p.text;
  const markdown = MARKDOWN_FILE.test(p.source.fileName);
  const out: string[] = [];
  if (p.path.length > 0) out.push(`**${p.path.slice(-2).map((h) => md(h)).join(' › ')}**`, '');
  let prevItem = true;
  for (const line of cut.split('\n')) {
    const item = LIST_MARKER.test(line);
    if (!markdown && item && !prevItem && out.length > 0 && out[out.length - 1] !== '') out.push('');
    out.push(markdown ? line : plainLine(line));
    prevItem = item || line === '';
  }
  return out.map((l) => (l === '' ? '>' : `> ${l}`)).join('\n');
}

/** Headings make good follow-ups: "What does guide.md say about Refunds?" */
function headingQuestions(docs: readonly IndexedDocument[], exclude: Set<string>): string[] {
  const out: string[] = [];
  for (const d of docs) {
    for (const h of d.headings) if (!exclude.has(h)) out.push(`What does ${d.source.fileName} say about ${h}?`);
  }
  return out;
}

/** Searches `docs` for the question; the writer gets a "Search" step. */
export async function answerFromDocuments(
  ctx: AnswerContext, writer: AnswerWriter, index: RetrievalIndex, readText: (id: string) => Promise<string | undefined>,
): Promise<RetrievalOutcome> {
  const texts = ctx.sources.flatMap((s) => (s.ingest.kind === 'text' ? [{ source: s.source, chars: s.ingest.chars }] : []));
  const sources = texts.map((t) => t.source);
  const step = writer.step(`Search ${sources.map((s) => s.fileName).join(', ')} for passages about the question`);
  const docs: IndexedDocument[] = [];
  for (const { source, chars } of texts) {
    const doc = await index.document(source, chars, () => readText(source.id));
    ctx.signal.throwIfAborted();
    if (doc !== undefined) docs.push(doc);
  }
  const terms = RetrievalIndex.terms(ctx.question);
  const passages = terms.length > 0 ? index.search(ctx.question, docs) : [];
  step.done();
  const names = sources.map((s) => md(s.fileName)).join(', ');
  if (passages.length === 0) {
    return {
      found: false,
      message: terms.length === 0
        ? `The question has no searchable words. Ask about a topic of ${names}.`
        : `I found nothing about “${md(terms.join(' '))}” in ${names}, so I cannot answer from these documents.`,
      refs: sources.map((s) => sourceRef(s)),
      questions: headingQuestions(docs, new Set()).slice(0, 3),
    };
  }
  const top = passages[0] as Passage;
  const lines = [`The most relevant passage is in **${where(top)}**:`, '', quote(top)];
  for (const p of passages.slice(1)) lines.push('', `Also in ${where(p)}:`, '', quote(p));
  const used = new Set(passages.map((p) => p.heading ?? ''));
  const refs = passages.map((p) => sourceRef(p.source, { ...(p.page !== undefined ? { pageNo: p.page } : {}), content: p.text.slice(0, 2000) }));
  return { found: true, message: lines.join('\n'), refs, questions: headingQuestions(docs, used).slice(0, 3) };
}
