/**
 * Choosing which column, value or table a mention means, for the role a reading gives it: a
 * measure wants a number that is not an identifier, a grouping a category, a filter the column
 * whose values were named. Each choice adds the lattice's cost and a cost for a poor fit; close
 * alternatives are remembered so the reader can check whether they answer differently.
 */
import type { Tok } from '../language/tokens';
import type { ColHit, ValHit } from './lattice';
import type { ColM, ValM } from './parts';
import { isGroupable, isIdLike, isNumeric } from './shape';
import type { ColRef, ColumnMeta, TableMeta } from './types';

export type Role = 'measure' | 'dim' | 'filter' | 'count' | 'any' | 'date';

/** A choice the reader may make differently: the mention (by its span) and which column to use. */
export type Choices = ReadonlyMap<string, ColumnMeta>;

export interface Chooser {
  prefer: TableMeta | undefined;
  choices: Choices;
  /** Mentions where another column fitted almost as well: `from:to` -> the runners-up. */
  close: Map<string, ColumnMeta[]>;
  cost: number;
  /** The question's tokens, for where its words are (the verb of a share). */
  tokens?: readonly Tok[];
  /** Columns the question names by name somewhere: a value of one of them is likelier meant. */
  named?: ReadonlySet<ColumnMeta>;
}

const CLOSE = 0.35;

/** A text column of short upper-case codes only (`RWA`, `DE`). */
const codes = (c: ColumnMeta): boolean => c.kind === 'text' && (c.values?.length ?? 0) > 1 && (c.values ?? []).every((v) => /^[A-Z0-9]{2,4}$/.test(v) && /[A-Z]/.test(v));

function fit(c: ColumnMeta, role: Role): number | undefined {
  switch (role) {
    case 'measure':
      return isNumeric(c) ? (isIdLike(c) ? 2 : 0) : c.kind === 'temporal' ? 1 : undefined;
    case 'dim':
      return isGroupable(c) ? (isIdLike(c) && c.kind !== 'text' ? 1 : 0) : c.kind === 'text' ? 0.5 : 1.5;
    case 'date':
      return c.kind === 'temporal' ? 0 : undefined;
    case 'count':
      return 0;
    default:
      return 0;
  }
}

/** The best column of a mention for a role (undefined when none fits it). */
export function pickCol(ch: Chooser, m: ColM, role: Role): ColRef | undefined {
  const key = `${m.from}:${m.to}`;
  const forced = ch.choices.get(key);
  // Codes ("RWA") group as well as names ("Rwanda") but read worse: "which country" is by name
  // when the mention also names a column of names (`Region Code` matches "region" more closely).
  const named = role === 'dim' && m.alts.some((a) => a.ref.column.kind === 'text' && isGroupable(a.ref.column) && !codes(a.ref.column));
  const scored = m.alts
    .map((a: ColHit) => ({ a, f: (fit(a.ref.column, role) ?? NaN) + (named && codes(a.ref.column) ? 1 : 0) }))
    .map((x) => ({ a: x.a, f: Number.isNaN(x.f) ? undefined : x.f }))
    .filter((x): x is { a: ColHit; f: number } => x.f !== undefined && (forced === undefined || x.a.ref.column === forced))
    .map((x) => ({ ...x, s: x.a.cost + x.f + (ch.prefer !== undefined && x.a.ref.table !== ch.prefer ? 0.3 : 0) }))
    .sort((x, y) => x.s - y.s);
  return settle(ch, key, forced, scored)?.ref;
}

/** The cheapest scored reading: its cost is paid, and readings close to it are kept as rivals. */
function settle<A extends { ref: ColRef }>(ch: Chooser, key: string, forced: ColumnMeta | undefined, scored: ReadonlyArray<{ a: A; s: number }>): A | undefined {
  const best = scored[0];
  if (best === undefined) return undefined;
  const rivals = scored.slice(1).filter((x) => x.s - best.s < CLOSE && x.a.ref.column !== best.a.ref.column).map((x) => x.a.ref.column);
  if (rivals.length > 0 && forced === undefined) ch.close.set(key, rivals);
  ch.cost += best.s;
  return best.a;
}

/** The best reading of a value mention: the column named beside it, the preferred table, the cheapest link. */
export function pickVal(ch: Chooser, m: ValM, named?: ColM): ValHit | undefined {
  const key = `${m.from}:${m.to}`;
  const forced = ch.choices.get(key);
  const cols = new Set(named?.alts.map((a) => a.ref.column) ?? []);
  const scored = m.alts
    .filter((a) => forced === undefined || a.ref.column === forced)
    .map((a) => ({ a, s: a.cost + (cols.size > 0 && !cols.has(a.ref.column) ? 3 : 0) + (ch.prefer !== undefined && a.ref.table !== ch.prefer ? 0.3 : 0) - (ch.named?.has(a.ref.column) === true ? 0.4 : 0) }))
    .sort((x, y) => x.s - y.s);
  return settle(ch, key, forced, scored);
}
