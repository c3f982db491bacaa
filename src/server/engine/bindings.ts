/**
 * What an unplaced word might mean, offered as one click each: the columns and values it is
 * nearest to (spelling, a shared stem, an abbreviation, a looser WordNet relation), else the
 * table's measures. Clicking one asks a definition (`"heaviest" means \`wt\``), which the glossary
 * keeps, and the question is answered again with it.
 */
import { conceptsOf, isSexedNoun, meet, nameConcepts } from '../language/concepts';
import { abbreviates, editDistance, stemOf } from '../language/similar';
import { taggedSenses } from '../language/wordnet';
import { fold, identifierWords, singular } from '../language/words';
import type { Lattice } from './lattice';
import { isFlag, isIdLike, isNumeric, isSexColumn, timeNamed } from './shape';
import type { ColumnMeta, TableMeta } from './types';

export interface Binding {
  /** The words as the user wrote them. */
  word: string;
  column: string;
  table: string;
  value?: string;
  /** The question that binds them: `"heaviest" means \`wt\``. */
  question: string;
}

/** How near a word is to a name or value word (lower is nearer; undefined: not at all). */
function nearness(word: string, name: string): number | undefined {
  if (word === name) return 0;
  if (word.length >= 4 && name.length >= 4 && stemOf(word) === stemOf(name)) return 0.2;
  if (abbreviates(name, [word]) || abbreviates(word, [name])) return 0.5;
  const cap = Math.max(1, Math.floor(Math.min(word.length, name.length) / 4));
  const d = editDistance(word, name, cap);
  if (d <= cap) return 0.6 + d * 0.2;
  if (word.length >= 4 && name.length >= 4 && (word.startsWith(name.slice(0, 4)) || name.startsWith(word.slice(0, 4)))) return 1.2;
  const m = word.length >= 3 && name.length >= 3 ? meet(conceptsOf(word), nameConcepts(name)) : undefined;
  return m !== undefined && m <= 3 ? 1 + m * 0.3 : undefined;
}

const define = (word: string, target: string): string => `"${word.replace(/"/g, "'")}" means ${target}`;
const tick = (name: string): string => `\`${name.replace(/`/g, "'")}\``;

function columnBindings(word: string, tables: readonly TableMeta[]): Array<{ b: Binding; s: number }> {
  const ws = identifierWords(word).map(singular);
  const out: Array<{ b: Binding; s: number }> = [];
  for (const t of tables) {
    for (const c of t.columns) {
      const names = identifierWords(c.name).map(singular);
      let best: number | undefined;
      for (const w of ws) for (const n of names) {
        const x = nearness(w, n);
        if (x !== undefined && (best === undefined || x < best)) best = x;
      }
      if (ws.length > 1 && names.length === 1 && abbreviates(names[0] ?? '', ws)) best = 0.3;
      else if (ws.length === 1 && names.length === 1 && abbreviates(names[0] ?? '', [ws[0] ?? ''])) best = Math.min(best ?? 0.4, 0.4);
      if (best !== undefined) out.push({ b: { word, column: c.name, table: t.label, question: define(word, tick(c.name)) }, s: best });
    }
  }
  return out;
}

function valueBindings(word: string, tables: readonly TableMeta[]): Array<{ b: Binding; s: number }> {
  const w = fold(word);
  const everyday = taggedSenses(singular(w)) >= 2;
  const out: Array<{ b: Binding; s: number }> = [];
  for (const t of tables) {
    for (const c of t.columns) {
      for (const v of c.values ?? []) {
        if (v.length > 40) continue;
        const fv = fold(v);
        // A short code may abbreviate the words ("NSW"), or be the word's initial ("advance" for A).
        // ("seasons" is no SEA: an everyday word is not a code it starts like.)
        const x = fv.length === 1 ? (w.startsWith(fv) ? 0.7 : undefined) : fv.length <= 3 ? (!everyday && abbreviates(fv, identifierWords(w)) ? 0.6 : undefined) : nearness(w, fv);
        if (x !== undefined && x < 1) out.push({ b: { word, column: c.name, table: t.label, value: v, question: define(word, `"${v.replace(/"/g, "'")}"`) }, s: x + 0.1 });
      }
    }
  }
  return out;
}

/** "women" where `sex` holds codes (1, 2): each code of the sex column, for the user to say which. */
function sexBindings(word: string, tables: readonly TableMeta[]): Binding[] {
  if (!isSexedNoun(singular(fold(word)))) return [];
  const out: Binding[] = [];
  for (const t of tables) {
    for (const c of t.columns) {
      if (!isSexColumn(c)) continue;
      const codes = c.values ?? (c.kind === 'numeric' && Number.isInteger(c.min) && Number.isInteger(c.max) && Number(c.max) - Number(c.min) < 4
        ? Array.from({ length: Number(c.max) - Number(c.min) + 1 }, (_, k) => String(Number(c.min) + k)) : []);
      for (const v of codes.slice(0, 4)) out.push({ word, column: c.name, table: t.label, value: v, question: define(word, c.values !== undefined ? `"${v.replace(/"/g, "'")}"` : `${tick(c.name)} = ${v}`) });
    }
  }
  return out;
}

/** Up to four bindings for each word: the nearest columns and values, else the table's measures. */
export function suggestBindings(words: readonly string[], lat: Lattice): Binding[] {
  const out: Binding[] = [];
  for (const word of words.slice(0, 3)) {
    const near = [...columnBindings(word, lat.tables), ...valueBindings(word, lat.tables)].sort((a, b) => a.s - b.s).slice(0, 4);
    // "smokers" nearest `Smoke` (Current, Past, Nonsmoker): the values say which rows are meant.
    const values = near.filter((x) => x.s <= 0.8 && x.b.value === undefined).flatMap((x) => {
      const c = lat.tables.find((t) => t.label === x.b.table)?.columns.find((k) => k.name === x.b.column);
      return c?.kind === 'text' && (c.values ?? []).length <= 8 ? (c.values ?? []).filter((v) => !(c.nullMarkers ?? []).includes(v)).slice(0, 4)
        .map((v) => ({ word, column: c.name, table: x.b.table, value: v, question: define(word, `"${v.replace(/"/g, "'")}"`) })) : [];
    });
    const found = [...values, ...near.map((x) => x.b)].slice(0, 6);
    if (found.length === 0) found.push(...sexBindings(word, lat.tables));
    if (found.length === 0) {
      // Nothing near: the measures a word after "how many" or "average" most likely meant (never
      // a year or an id); a verb ("died") more likely names a yes/no column.
      const verb = /ed$/.test(word);
      const measures: Array<{ t: TableMeta; c: ColumnMeta }> = lat.tables.flatMap((t) => t.columns.filter((c) => (isNumeric(c) || c.kind === 'boolean') && !isIdLike(c) && !timeNamed(c)).map((c) => ({ t, c })))
        .sort((a, b) => (isFlag(a.c) === isFlag(b.c) ? 0 : isFlag(a.c) === verb ? -1 : 1));
      for (const { t, c } of measures.slice(0, 3)) found.push({ word, column: c.name, table: t.label, question: define(word, tick(c.name)) });
    }
    for (const b of found) if (!out.some((x) => x.question === b.question)) out.push(b);
  }
  return out;
}
