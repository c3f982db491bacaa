/**
 * A dataset's glossary: words its users chose a meaning for ("heaviest" is `wt`, "kelloggs" is
 * the value K of `mfr`). The local service keeps it with the dataset; every question over the
 * dataset reads those words that way. Shared: the service keeps it, the extension lists and edits it.
 */

/** Lower case without accents, as the engine compares words. */
const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/ß/g, 'ss').toLowerCase();

export interface GlossaryEntry {
  /** The words as typed, folded and single-spaced. */
  phrase: string;
  /** The column meant, or whose value is meant. */
  column: string;
  /** The table (as users see it: `sales.csv`) when the dataset has several. */
  table?: string;
  /** A value of the column, when the words mean that value. */
  value?: string;
}

/** At most this many meanings per dataset, each at most this long: the glossary is read with every question. */
export const MAX_GLOSSARY = 500;
const MAX_TEXT = 200;

/**
 * Glossary entries from untrusted JSON (a persisted file, a request body): entries of the wrong
 * shape or size are dropped, phrases are re-keyed, and a later entry for the same words wins.
 */
export function readGlossary(v: unknown): GlossaryEntry[] {
  if (!Array.isArray(v)) return [];
  const text = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' && x.length <= MAX_TEXT ? x : undefined);
  const out = new Map<string, GlossaryEntry>();
  for (const e of v.slice(0, MAX_GLOSSARY * 2)) {
    if (e === null || typeof e !== 'object') continue;
    const o = e as Record<string, unknown>;
    const phrase = text(o['phrase']);
    const column = text(o['column']);
    if (phrase === undefined || column === undefined || glossaryPhrase(phrase) === '') continue;
    const entry: GlossaryEntry = { phrase: glossaryPhrase(phrase), column };
    const table = text(o['table']);
    const value = text(o['value']);
    if (table !== undefined) entry.table = table;
    if (value !== undefined) entry.value = value;
    out.set(`${entry.table ?? ''}\u0000${entry.phrase}`, entry);
  }
  return [...out.values()].slice(-MAX_GLOSSARY);
}

/** `list` with `entry` added, replacing an earlier meaning of the same words (in the same table). */
export function withEntry(list: readonly GlossaryEntry[], entry: GlossaryEntry): GlossaryEntry[] {
  return readGlossary([...list.filter((g) => !(g.phrase === entry.phrase && g.table === entry.table)), entry]);
}

/** A phrase as the glossary keys it. */
export function glossaryPhrase(words: string): string {
  return fold(words).replace(/[^\p{L}\p{N}]+/gu, ' ').trim().replace(/\s+/g, ' ');
}
