/**
 * How the engine reads a table's columns, said in the overview so a user sees it before asking:
 * codes that are never added up, yes/no columns written as letters, a column of counts every count
 * adds up, placeholders that count as missing, numbers written as text, and dates made of parts.
 * Each note comes from what was decided when the table was read (schemaIndex, shape), so the
 * overview and the answers cannot disagree.
 */
import { mdText } from '../../shared/markdownText';
import { frequencyWeight, isIdLike } from './shape';
import type { TableMeta } from './types';
import { longNote } from './wideTables';
import { keyedNote } from './keyedMeasures';

const code = (name: string): string => `\`${name.replace(/`/g, "'")}\``;
const quoted = (values: readonly string[]): string => values.slice(0, 4).map((v) => `"${mdText(v)}"`).join(', ');

/** One line per decision worth knowing; empty when the table holds nothing unusual. */
export function shapeNotes(t: TableMeta): string[] {
  const notes: string[] = t.long !== undefined ? [longNote(t.label, t.long)] : [];
  const weight = frequencyWeight(t);
  if (weight !== undefined) notes.push(`${code(weight.column.name)} says how many each row stands for: counts add it up.`);
  const codes = t.columns.filter((c) => c.kind === 'numeric' && !c.unique && isIdLike(c) && c !== weight?.column);
  if (codes.length > 0) notes.push(`${codes.map((c) => code(c.name)).join(', ')} ${codes.length === 1 ? 'holds codes' : 'hold codes'}: counted and grouped, never added up.`);
  for (const c of t.columns.filter((x) => x.kind === 'boolean' && x.converted && x.values !== undefined)) {
    notes.push(`${code(c.name)} is yes or no (${quoted(c.values ?? [])}).`);
  }
  for (const c of t.columns.filter((x) => (x.nullMarkers ?? []).length > 0)) notes.push(`In ${code(c.name)}, ${quoted(c.nullMarkers ?? [])} count as missing.`);
  for (const c of t.columns.filter((x) => x.entityKey !== undefined)) notes.push(`${code(c.name)} is one value per ${code(c.entityKey ?? '')}, repeated on its rows: sums and averages count each once.`);
  for (const c of t.columns.filter((x) => x.missingCode !== undefined)) notes.push(`In ${code(c.name)}, ${c.missingCode?.value} means not known (${c.missingCode?.rows} rows): read as missing.`);
  for (const c of t.columns.filter((x) => (x.placeGroups ?? []).some((v) => /[a-z]/.test(v)))) {
    notes.push(`In ${code(c.name)}, ${quoted(c.placeGroups ?? [])}${(c.placeGroups ?? []).length > 4 ? ' and others' : ''} are groups of nations: left out of counts, sums and rankings.`);
  }
  for (const c of t.columns.filter((x) => (x.totals ?? []).length > 0)) notes.push(`In ${code(c.name)}, ${quoted(c.totals ?? [])} rows hold the sum of the others: left out of sums, counts and rankings.`);
  for (const c of t.columns.filter((x) => x.kind === 'numeric' && x.converted && x.sqlTemplate !== undefined)) {
    const odd = (c.unreadable ?? 0) > 0 && c.unreadableExample !== undefined ? `; ${c.unreadable} other values (such as "${mdText(c.unreadableExample)}") are not numbers` : '';
    notes.push(`${code(c.name)} holds numbers written as text${odd}.`);
  }
  const keyed = keyedNote(t.columns);
  if (keyed !== undefined) notes.push(keyed);
  for (const c of t.columns.filter((x) => x.derived !== undefined && x.keyedBy === undefined)) {
    const made = (c.derived ?? []).map(code);
    notes.push(c.kind === 'numeric' ? `${code(c.name)} is ${made.join(' minus ')} (derived: it is not in the file).` : `${code(c.name)} is a date made of ${made.join(' and ')} (derived: it is not in the file).`);
  }
  return notes;
}

/** The notes as a Markdown list under a heading, or nothing. */
export function shapeSection(t: TableMeta): string {
  const notes = shapeNotes(t);
  return notes.length === 0 ? '' : `\n- How I read it:\n${notes.map((n) => `  - ${n}`).join('\n')}`;
}
