/**
 * Place names and their codes, from maintained packages: countries (`i18n-iso-countries`: names,
 * alternative names, ISO alpha-2 and alpha-3 codes) and US states and territories (`states-us`:
 * names and postal abbreviations). A data value and a question phrase name the same place when
 * they share an id (`country:FR` for "France", "FRA" and "FR"; `state:TX` for "Texas" and "tx").
 */
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import { states } from 'states-us';
import { fold } from './words';
import { follow, senses } from './wordnet';

interface Tables {
  /** Folded full names (and alternative names) -> ids. */
  names: Map<string, string[]>;
  /** Upper-case codes -> ids. */
  codes: Map<string, string[]>;
}

let tables: Tables | undefined;

function add(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key) ?? [];
  if (!list.includes(id)) list.push(id);
  map.set(key, list);
}

function build(): Tables {
  countries.registerLocale(en);
  const names = new Map<string, string[]>();
  const codes = new Map<string, string[]>();
  const all = countries.getNames('en', { select: 'all' });
  for (const [alpha2, list] of Object.entries(all)) {
    const id = `country:${alpha2}`;
    for (const n of list) {
      // "USA", "U.S." are codes written as names: they match as codes (upper case) only.
      if (/^[A-Z.]{2,6}$/.test(n)) add(codes, n.replace(/\./g, ''), id);
      else add(names, fold(n), id);
    }
    add(codes, alpha2, id);
    const alpha3 = countries.alpha2ToAlpha3(alpha2);
    if (alpha3 !== undefined) add(codes, alpha3, id);
  }
  for (const s of states) {
    add(names, fold(s.name), `state:${s.abbreviation}`);
    add(codes, s.abbreviation, `state:${s.abbreviation}`);
  }
  return { names, codes };
}

function lookup(): Tables {
  tables ??= build();
  return tables;
}

/** The places a data value names: by name, or by code (any case: data writes "tx" or "TX"). */
export function placesOfValue(value: string): string[] {
  const v = value.trim();
  if (v.length < 2 || v.length > 60) return [];
  const t = lookup();
  if (/^[A-Za-z]{2,3}$/.test(v)) return t.codes.get(v.toUpperCase()) ?? t.names.get(fold(v)) ?? [];
  return t.names.get(fold(v)) ?? [];
}

/**
 * The places a question phrase names. Names in any case ("new south wales" is not one, "texas"
 * is); codes only as written in capitals ("US", "DEU"), since "in", "us" and "can" are words.
 */
export function placesOfPhrase(raw: string): string[] {
  const t = lookup();
  const byName = t.names.get(fold(raw.trim()));
  if (byName !== undefined) return byName;
  const bare = raw.trim().replace(/\./g, '');
  return /^[A-Z]{2,3}$/.test(bare) ? t.codes.get(bare) ?? [] : [];
}

/**
 * The places an adjective of nationality or origin names ("chinese", "Japanese", "texan"):
 * WordNet's pertainym of the adjective is the place's noun ("japan"). Of several place nouns, the
 * one spelled most like the adjective wins ("chinese": China before Taiwan, both in one synset).
 */
export function placesOfAdjective(word: string): string[] {
  const w = fold(word);
  if (!/^[a-z]{4,}$/.test(w)) return [];
  const nouns = senses(w, 'a', 2).flatMap((s) => follow(s, '\\')).flatMap((s) => s.words);
  const shared = (n: string): number => {
    let k = 0;
    while (k < n.length && k < w.length && n[k] === w[k]) k++;
    return k;
  };
  const placed = nouns.map((n) => ({ n, ids: placesOfPhrase(n) })).filter((x) => x.ids.length > 0);
  placed.sort((a, b) => shared(b.n) - shared(a.n));
  return placed[0]?.ids ?? [];
}
