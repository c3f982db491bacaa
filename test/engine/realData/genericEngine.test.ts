/**
 * The engine must stay generic: nothing in its source (strings, regular expressions, comments)
 * may name a file or a column of the real-data suite, so its quality there cannot come from rules
 * written for those files. Code identifiers are not checked (a variable called `label` is not the
 * column `label`); plain English words the engine's vocabulary needs anyway ("price", "weight")
 * are allowed by name below (single words only: `hs_grad`, `atomicMass` or a file name never can be),
 * and each addition to that list is a decision someone has to make.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { fetchRealData } from './fetch';
import { ALL_DATA_SETS } from './sources';

/** The engine and the ingestion that types columns for it. */
const ENGINE_DIRS = ['engine', 'duckdb', 'profile'].map((d) => join(__dirname, '..', '..', '..', 'src', 'server', d));

/**
 * Everyday words that happen to be column names in the suite and that any English question
 * vocabulary contains (synonyms, units, grammar). A file name or an identifier-like column name
 * (`hs_grad`, `SUNACTIVITY`, `atomicMass`) can never be listed here.
 */
const VOCABULARY = new Set([
  'age', 'area', 'bar', 'bore', 'capital', 'cat', 'choice', 'city', 'common', 'date', 'day', 'density', 'direction', 'education', 'flag', 'gender',
  'height', 'hp', 'humidity', 'income', 'individual', 'label', 'lat', 'length', 'lon', 'make', 'mode', 'month', 'name', 'official', 'per', 'period',
  'pop', 'price', 'quarter', 'race', 'reading', 'region', 'run', 'single', 'size', 'south', 'state', 'status', 'style', 'symbol', 'temp', 'temperature',
  'union', 'value', 'volume', 'wage', 'weight', 'white', 'width', 'year', 'all', 'yes', 'time', 'native', 'root', 'children', 'experience', 'occupation',
  'sector', 'married', 'independent', 'language', 'languages', 'area', 'loss', 'drive', 'fuel', 'doors', 'cylinders', 'length', 'invest', 'firm', 'staff',
  'prestige', 'size', 'subs', 'degree', 'executions', 'location', 'cancer', 'population', 'survival', 'censors', 'censored', 'act', 'mor', 'label',
  // Everyday opposites in the lexicon's antonym table (indoor/outdoor, urban/rural), not one file's columns.
  'indoor', 'urban',
  // Month abbreviations (a file with a column per month) are the calendar, not a file's columns.
  'jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec',
]);

const lower = (s: string): string => s.toLowerCase();

/** Names of the suite: file names (without extension) and column names (header cells, JSON keys). */
function suiteNames(dir: string): { files: Set<string>; columns: Set<string> } {
  const files = new Set<string>();
  const columns = new Set<string>();
  for (const s of ALL_DATA_SETS) {
    files.add(lower(s.file.replace(/\.[^.]+$/, '')));
    const text = readFileSync(join(dir, s.file), 'utf-8');
    if (s.file.endsWith('.json')) {
      const walk = (o: unknown, depth: number): void => {
        if (o === null || typeof o !== 'object' || Array.isArray(o) || depth > 2) return;
        for (const [k, v] of Object.entries(o)) {
          columns.add(k);
          walk(v, depth + 1);
        }
      };
      const parsed: unknown = JSON.parse(text);
      for (const r of Array.isArray(parsed) ? parsed.slice(0, 100) : [parsed]) walk(r, 0);
    } else {
      const head = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
      for (const c of head.split(/[,;\t]/)) columns.add(c.replace(/^\s*["']|["']\s*$/g, '').trim());
    }
  }
  return { files, columns };
}

/** The strings, regular expressions and comments of a TypeScript file. */
function prose(path: string): string[] {
  const text = readFileSync(path, 'utf-8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isRegularExpressionLiteral(n)) out.push(n.text);
    else if (ts.isTemplateExpression(n)) out.push(n.head.text, ...n.templateSpans.map((s) => s.literal.text));
    ts.forEachChild(n, visit);
  };
  visit(source);
  for (const m of text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) out.push(m[0]);
  return out;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (texts: readonly string[], name: string): string | undefined => {
  const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(name)}($|[^\\p{L}\\p{N}_])`, 'iu');
  return texts.find((t) => re.test(t));
};

function violations(texts: readonly string[], names: { files: Set<string>; columns: Set<string> }): string[] {
  const out: string[] = [];
  for (const f of names.files) {
    if (f.length < 4) continue;
    const hit = named(texts, f);
    if (hit !== undefined) out.push(`file name "${f}" in: ${hit.slice(0, 100)}`);
  }
  for (const c of names.columns) {
    // Two- and three-letter codes (`EUR`, `deu`) cannot be told from word pieces and units; longer names can.
    if (/^\d+$/.test(c) || (/^[A-Za-z]+$/.test(c) && c.length <= 3)) continue;
    if (/^[A-Za-z]+$/.test(c) && VOCABULARY.has(lower(c))) continue;
    const hit = named(texts, c);
    if (hit !== undefined) out.push(`column "${c}" in: ${hit.slice(0, 100)}`);
  }
  return out;
}

describe('the engine is generic', function () {
  this.timeout(120_000);
  let names: { files: Set<string>; columns: Set<string> };

  before(async () => {
    names = suiteNames(await fetchRealData());
  });

  it('names no file or column of the real-data suite in its strings, patterns or comments', () => {
    const found: string[] = [];
    for (const dir of ENGINE_DIRS) {
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
        for (const v of violations(prose(join(dir, f)), names)) found.push(`${f}: ${v}`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('would notice a rule written for a suite file or column (the check itself works)', () => {
    assert.ok(names.columns.size > 50 && names.files.size >= 20, 'the suite names were read');
    const planted = ['// special case for statecrime.csv', "const X = /hs_grad/;", "'SUNACTIVITY'", 'a comment about `atomicMass`'];
    assert.equal(violations(planted, names).length, 4, violations(planted, names).join('\n'));
    assert.deepEqual(violations(['the average price per state'], names), []);
  });
});
