/**
 * Retrieval over text sources (md, mdx, txt, pdf, docx, pptx): documents are cut into passages
 * (passages.ts: up to ~800 characters, tagged with their page or slide and the headings above),
 * indexed with MiniSearch (BM25 with prefix and fuzzy matching; numbers and money spelled one way
 * by searchTerms.ts), and the best passages are quoted.
 * Indexes are cached per document version.
 */
import MiniSearch from 'minisearch';
import type { DataSource } from '../../shared/domain';
import { chunkText, type Chunk } from './passages';
import { isNumberTerm, searchTokens } from './searchTerms';
import { fold, singular as stem } from '../language/words';

export interface Passage {
  source: DataSource;
  /** 1-based page or slide, for paged documents. */
  page?: number;
  /** The nearest heading above the passage. */
  heading?: string;
  /** The headings above the passage, outermost first. */
  path: string[];
  text: string;
  score: number;
}

const CACHE_LIMIT = 32;
/**
 * Words that only shape the question ("what does the guide say about ..."): grammar words and
 * the words people use to point at a document. Not the stop words of table questions, which drop
 * words such as "highest", "list", "first" or "type" that are content in a document.
 */
const QUESTION_WORDS = new Set([
  'a', 'an', 'the', 'of', 'for', 'in', 'on', 'at', 'to', 'by', 'with', 'and', 'or', 'what', 'whats', 'which', 'who',
  'whom', 'whose', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'doe', 'did', 'how', 'me', 'i',
  'we', 'our', 'my', 'your', 'you', 'their', 'they', 'them', 'he', 'she', 'his', 'her', 'it', 'its', 'this', 'that',
  'these', 'those', 'there', 'here', 'where', 'when', 'why', 'if', 'so', 'can', 'could', 'would', 'should', 'will',
  'shall', 'as', 'than', 'then', 'from', 'into', 'about', 'any', 'some', 'please', 'tell', 'show', 'give', 'find',
  'get', 'let', 'lets', 'want', 'need', 'know', 'just', 'also', 'too', 'very', 'really', 'ok', 'okay', 'hi', 'hey',
  'thanks', 'say', 'says', 'said', 'document', 'documents', 'doc', 'docs', 'guide', 'file', 'files', 'according',
  'mention', 'mentions', 'mentioned', 'explain', 'describe', 'text', 'written', 'write', 'mean', 'means', 'meant',
  'anything', 'something', 'thing', 'things', 'way', 'ways', 'use', 'used', 'using', 'like', 'such', 'many', 'much',
]);

function processTerm(term: string): string | null {
  const t = fold(term);
  // Numbers count whatever their length ("section 5", "5 days"); words need two letters.
  if (isNumberTerm(t)) return t;
  if (t.length < 2 || QUESTION_WORDS.has(t)) return null;
  return stem(t);
}

/** Headings are searched with the passage: "/bin" finds the "Requirements" section under it. */
const indexed = (c: Chunk): { id: number; heading: string; text: string } => ({ id: c.id, heading: c.path.join(' \n'), text: c.text });

/** Prefix and fuzzy matching help words ("refund" finds "refunds"), never numbers: 100 is not 1000. */
const prefix = (term: string): boolean => term.length >= 4 && !isNumberTerm(term);
const fuzzy = (term: string): number | false => (term.length >= 5 && !isNumberTerm(term) ? 0.2 : false);

function newIndex(): MiniSearch<{ id: number; heading: string; text: string }> {
  return new MiniSearch({
    fields: ['heading', 'text'],
    storeFields: [],
    tokenize: searchTokens,
    processTerm,
    searchOptions: { boost: { heading: 1.5 }, prefix, fuzzy, combineWith: 'OR' },
  });
}

/** A document ready to search: its chunks, their index, and its headings (for follow-ups). */
export interface IndexedDocument {
  source: DataSource;
  index: MiniSearch<{ id: number; heading: string; text: string }>;
  chunks: Chunk[];
  headings: string[];
}

/** Section headings of 3 to 60 characters, in document order (for follow-up questions). */
function headingsOf(chunks: readonly Chunk[]): string[] {
  const seen = new Set<string>();
  for (const c of chunks) for (const h of c.path) if (h.length >= 3 && h.length <= 60) seen.add(h);
  return [...seen];
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
    index.addAll(chunks.map(indexed));
    const doc: IndexedDocument = { source, index, chunks, headings: headingsOf(chunks) };
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
        const p: Passage = { source: d.source, text: c.text, path: c.path, score: hit.score };
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
    return searchTokens(question).map((t) => processTerm(t)).filter((t): t is string => t !== null);
  }
}
