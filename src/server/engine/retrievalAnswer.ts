/**
 * Answers from documents: searches the text sources and quotes the most relevant passages, naming
 * each file (and page or slide) in the message and in SOURCES. Never paraphrases beyond the quotes.
 */
import type { SourceRef } from '../../shared/domain';
import type { AnswerContext } from '../engine';
import { sourceRef, type AnswerWriter } from './answerWriter';
import { md } from './describe';
import { RetrievalIndex, type IndexedDocument, type Passage } from './retrieval';

const QUOTE_CHARS = 700;

export interface RetrievalOutcome {
  found: boolean;
  message: string;
  refs: SourceRef[];
  questions: string[];
}

function where(p: Passage): string {
  const paged = /\.(pdf)$/i.test(p.source.fileName) ? 'page' : /\.(pptx)$/i.test(p.source.fileName) ? 'slide' : 'part';
  return `${md(p.source.fileName)}${p.page !== undefined ? `, ${paged} ${p.page}` : ''}${p.heading ? ` (“${md(p.heading)}”)` : ''}`;
}

function quote(text: string): string {
  const t = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')} …` : text;
  return t.split('\n').map((l) => `> ${l.replace(/^#+\s*/, '')}`).join('\n');
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
  const lines = [`The most relevant passage is in **${where(top)}**:`, '', quote(top.text)];
  for (const p of passages.slice(1)) lines.push('', `Also in ${where(p)}:`, '', quote(p.text));
  const used = new Set(passages.map((p) => p.heading ?? ''));
  const refs = passages.map((p) => sourceRef(p.source, { ...(p.page !== undefined ? { pageNo: p.page } : {}), content: p.text.slice(0, 2000) }));
  return { found: true, message: lines.join('\n'), refs, questions: headingQuestions(docs, used).slice(0, 3) };
}
