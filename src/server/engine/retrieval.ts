/**
 * Retrieval over text sources (md, mdx, txt, pdf, docx, pptx): documents are cut into passages
 * (paragraphs merged up to ~800 characters, tagged with their page or slide and nearest heading),
 * indexed with MiniSearch (BM25 with prefix and fuzzy matching), and the best passages are quoted.
 * Indexes are cached per document version.
 */
import MiniSearch from 'minisearch';
import type { DataSource } from '../../shared/domain';
import { fold, stem, STOP_WORDS } from './text';

export interface Passage {
  source: DataSource;
  /** 1-based page or slide, for paged documents. */
  page?: number;
  heading?: string;
  text: string;
  score: number;
}

interface Chunk {
  id: number;
  page?: number;
  heading?: string;
  text: string;
}

const TARGET_CHARS = 800;
const MAX_CHARS = 1200;
const CACHE_LIMIT = 32;
/** Words that only shape the question ("what does the guide say about ..."). */
const QUESTION_WORDS = new Set(['say', 'says', 'said', 'tell', 'document', 'documents', 'doc', 'docs', 'guide', 'file', 'according', 'mention', 'mentions', 'explain', 'describe', 'policy', 'text', 'written', 'write', 'does', 'do']);

/** Splits a long paragraph at sentence ends. */
function splitLong(p: string): string[] {
  if (p.length <= MAX_CHARS) return [p];
  const out: string[] = [];
  let cur = '';
  for (const s of p.split(/(?<=[.!?])\s+/)) {
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

/** Passages of a document, with page numbers when the text has page breaks. */
export function chunkText(text: string): Chunk[] {
  const pages = text.split('\f');
  const paged = pages.length > 1;
  const out: Chunk[] = [];
  let heading: string | undefined;
  pages.forEach((page, pi) => {
    let cur = '';
    const flush = (): void => {
      const t = cur.trim();
      if (t) {
        const c: Chunk = { id: out.length, text: t };
        if (paged) c.page = pi + 1;
        if (heading) c.heading = heading;
        out.push(c);
      }
      cur = '';
    };
    for (const para of page.split(/\n\s*\n/)) {
      const p = para.replace(/[ \t]+/g, ' ').trim();
      if (!p) continue;
      const h = /^#{1,6}\s+(.+)$/m.exec(p);
      if (h && p.split('\n').length === 1) {
        flush();
        heading = h[1]?.trim();
        cur = p;
        continue;
      }
      for (const piece of splitLong(p)) {
        if (cur.length > 0 && cur.length + piece.length > TARGET_CHARS) flush();
        cur += (cur ? '\n\n' : '') + piece;
      }
    }
    flush();
  });
  return out;
}

function processTerm(term: string): string | null {
  const t = fold(term);
  if (t.length < 2 || STOP_WORDS.has(t) || QUESTION_WORDS.has(t)) return null;
  return stem(t);
}

function newIndex(): MiniSearch<Chunk> {
  return new MiniSearch<Chunk>({
    fields: ['heading', 'text'],
    storeFields: [],
    processTerm,
    searchOptions: { boost: { heading: 1.5 }, prefix: (term) => term.length >= 4, fuzzy: (term) => (term.length >= 5 ? 0.2 : false), combineWith: 'OR' },
  });
}

/** A document ready to search: its chunks, their index, and its headings (for follow-ups). */
export interface IndexedDocument {
  source: DataSource;
  index: MiniSearch<Chunk>;
  chunks: Chunk[];
  headings: string[];
}

/** Markdown headings of levels 1-3 with 3 to 60 characters, in order. */
function headingsOf(text: string): string[] {
  return [...text.matchAll(/^#{1,3}\s+(.{3,60})$/gm)].map((m) => (m[1] ?? '').trim());
}

export class RetrievalIndex {
  private readonly cache = new Map<string, IndexedDocument>();

  /**
   * The indexed document of a text source. The text is read only when the source is not indexed
   * yet (or changed: its length and size are part of the key), so asking a document question
   * again does not pull the whole text out of the database.
   */
  async document(source: DataSource, chars: number, read: () => Promise<string | undefined>): Promise<IndexedDocument | undefined> {
    const key = `${source.id}|${chars}|${source.size ?? ''}`;
    const hit = this.cache.get(key);
    if (hit) return { ...hit, source };
    const text = await read();
    if (text === undefined) return undefined;
    const chunks = chunkText(text);
    const index = newIndex();
    index.addAll(chunks);
    const doc: IndexedDocument = { source, index, chunks, headings: headingsOf(text) };
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, doc);
    return doc;
  }

  /** The best passages across documents, best first (at most `limit`). */
  search(question: string, docs: readonly IndexedDocument[], limit = 3): Passage[] {
    const all: Passage[] = [];
    for (const d of docs) {
      for (const hit of d.index.search(question)) {
        const c = d.chunks[Number(hit.id)];
        if (!c) continue;
        const p: Passage = { source: d.source, text: c.text, score: hit.score };
        if (c.page !== undefined) p.page = c.page;
        if (c.heading !== undefined) p.heading = c.heading;
        all.push(p);
      }
    }
    all.sort((a, b) => b.score - a.score);
    const best = all[0]?.score ?? 0;
    // Weak matches far below the best one add noise, not evidence.
    return all.filter((p) => p.score >= best * 0.35).slice(0, limit);
  }

  /** How many query terms survive stop-word removal (0 means there is nothing to search for). */
  static terms(question: string): string[] {
    return question.split(/[^\p{L}\p{N}]+/u).map((t) => processTerm(t)).filter((t): t is string => t !== null);
  }
}
