/**
 * The grammar's machinery: rules declared as data (a name, its symbols, what it builds and what
 * it costs) are compiled once into a nearley grammar, and a question's tokens, each carrying the
 * lattice's readings, are parsed with nearley's Earley parser, which returns every parse of an
 * ambiguous question. Each parse is a list of parts with a cost; the reader ranks them.
 */
import nearley from 'nearley';
import type { Tok } from '../language/tokens';
import type { Lattice } from './lattice';

/** What nearley is fed: a token with what the lattice found it in. */
export interface Feed {
  t: Tok;
  lat: Lattice;
  /** Lattice kinds this token is part of (`col`, `val`, `rows`, `attr`). */
  in: ReadonlySet<string>;
  /** Whether the token may be read as an unknown word (content words only, or any in the lenient pass). */
  unknown: boolean;
}

/** A terminal: a test on one fed token. */
export interface Terminal {
  test: (f: Feed) => boolean;
  /** Words it accepts, when it is a keyword (the writer and the filler check use them). */
  words?: readonly string[];
}

export type Sym = string | Terminal;

/** Semantic values carry where they are in the question and what they cost. */
export interface Node {
  from: number;
  to: number;
  cost: number;
}

export interface RuleDef {
  name: string;
  symbols: Sym[];
  /** Builds the node from the children (tokens appear as their Feed). Returning undefined rejects the parse. */
  build?: (d: unknown[], at: { from: number; to: number }) => object | undefined;
  cost?: number;
}

const KEYWORDS = new Set<string>();

/** A keyword terminal: any of the words (folded, or their singular). */
export function kw(...words: string[]): Terminal {
  for (const w of words) KEYWORDS.add(w);
  return { test: (f) => (f.t.kind === 'word' || f.t.kind === 'op') && (words.includes(f.t.norm) || words.includes(f.t.sing)), words };
}

/** Whether a folded word is one the grammar reads. */
export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word);
}

export const tok = (test: (f: Feed) => boolean): Terminal => ({ test });

function span(d: unknown[], reference: number): { from: number; to: number; cost: number } {
  let from = Infinity;
  let to = -Infinity;
  let cost = 0;
  const visit = (x: unknown): void => {
    if (x === null || x === undefined) return;
    if (Array.isArray(x)) {
      x.forEach(visit);
      return;
    }
    if (typeof x !== 'object') return;
    const o = x as Partial<Feed & Node>;
    if (o.t !== undefined && o.lat !== undefined) {
      from = Math.min(from, o.t.i);
      to = Math.max(to, o.t.i + 1);
    } else if (typeof o.from === 'number' && typeof o.to === 'number') {
      from = Math.min(from, o.from);
      to = Math.max(to, o.to);
      cost += typeof o.cost === 'number' ? o.cost : 0;
    }
  };
  d.forEach(visit);
  return from === Infinity ? { from: reference, to: reference, cost } : { from, to, cost };
}

/** Compiles rule declarations into a nearley grammar starting at `start`. */
export function compile(rules: readonly RuleDef[], start: string): nearley.Grammar {
  return nearley.Grammar.fromCompiled({
    ParserStart: start,
    ParserRules: rules.map((r) => ({
      name: r.name,
      symbols: r.symbols,
      postprocess: (d: unknown[], reference?: number, reject?: object): unknown => {
        const s = span(d, reference ?? 0);
        if (r.build === undefined) {
          // A rule of one symbol passes its child on ("Span -> Point"); others keep their children.
          const only = d.length === 1 && d[0] !== null && typeof d[0] === 'object' && !('lat' in (d[0] as object)) ? (d[0] as object) : { d };
          return { ...only, ...s, cost: s.cost + (r.cost ?? 0) };
        }
        let built: object | undefined;
        try {
          built = r.build(d, s);
        } catch {
          // A builder that cannot read its children rejects this parse, never the question.
          return reject;
        }
        if (built === undefined) return reject;
        const own = (built as Partial<Node>).cost ?? 0;
        return { ...s, ...built, cost: s.cost + own + (r.cost ?? 0) };
      },
    })),
  });
}

/** At most this many parses are read; questions have few, and a pathological one is cut short. */
const MAX_PARSES = 3000;

/** Every parse of the fed tokens (an empty list when the grammar cannot read them). */
export function parseAll<T>(grammar: nearley.Grammar, feed: Feed[]): T[] {
  const parser = new nearley.Parser(grammar);
  try {
    parser.feed(feed as unknown as string);
  } catch {
    return [];
  }
  return (parser.results as T[]).slice(0, MAX_PARSES);
}
