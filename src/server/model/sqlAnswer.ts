/**
 * The optional model path: the model gets the schema (file-named CTEs, columns, sample values) and
 * the session's recent questions, and proposes one SELECT; the guard, deadline and row cap apply as
 * for built-in SQL. A second call asks for the narrative in the session's language, and it is only
 * used when every number in it comes from the result. Any failure hands back to the built-in engine.
 */
import type { LanguageType } from '../../shared/domain';
import { ResultTooLargeError, type QueryResult } from '../duckdb/queryRunner';
import type { AnswerContext } from '../engine';
import { toCsv } from '../profile/csvFormat';
import { fileNameFor, sqlBlock, type AnswerWriter } from '../engine/answerWriter';
import { renderChart, type ChartRequest } from '../engine/charts';
import { describePlan, fmtValue, md } from '../engine/describe';
import { MAX_CELL_BYTES, MAX_RESULT_BYTES, type Executor } from '../engine/executor';
import { chat, type LlmConfig } from './llmClient';
import { executedCte, shownCte, shownPreamble } from '../engine/recipe';
import { sqlName } from '../engine/schemaIndex';
import { suggestQuestions } from '../engine/suggestions';
import type { Plan, TableMeta } from '../engine/types';
import { formatBytes } from '../../shared/byteSize';

const LANGUAGES: Record<LanguageType, string> = {
  AUTO: 'the language the question is written in', EN: 'English', ES: 'Spanish', AR: 'Arabic', PT: 'Portuguese',
  ID: 'Indonesian', JA: 'Japanese', RU: 'Russian', HI: 'Hindi', FR: 'French', DE: 'German', VI: 'Vietnamese',
  TR: 'Turkish', PL: 'Polish', IT: 'Italian', KO: 'Korean', 'ZH-CN': 'Simplified Chinese', 'ZH-TW': 'Traditional Chinese',
};

/** Schema for the prompt: one line per column with type and a few values. */
export function schemaPrompt(tables: readonly TableMeta[]): string {
  return tables.map((t) => {
    const cols = t.columns.map((c) => {
      const vals = c.values && c.values.length > 0 ? ` values: ${c.values.slice(0, 8).map((v) => JSON.stringify(v)).join(', ')}${c.values.length > 8 ? ', ...' : ''}` : '';
      const range = c.min !== undefined ? ` range ${String(c.min)} .. ${String(c.max)}` : '';
      return `  - ${JSON.stringify(c.name)} ${c.type}${range}${vals}`;
    });
    return `Table ${sqlName(t.alias)} (from ${t.label}, ${t.rowCount} rows):\n${cols.join('\n')}`;
  }).join('\n\n');
}

/** Prefixes the table CTEs to a model statement (merging with its own WITH list). */
export function withTables(ctes: readonly string[], sql: string): string {
  const m = /^\s*with\s+(?!recursive\b)/i.exec(sql);
  return m ? `WITH ${ctes.join(',\n')},\n${sql.slice(m[0].length)}` : `WITH ${ctes.join(',\n')}\n${sql}`;
}

/** Numbers in the narrative must come from the result (or be small counts, years, or shares of a column). */
export function numbersSupported(text: string, rows: readonly unknown[][]): boolean {
  const cells = rows.flat().map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : NaN)).filter(Number.isFinite);
  const colSums = (rows[0] ?? []).map((_v, i) => rows.reduce((a, r) => a + (typeof r[i] === 'number' ? (r[i] as number) : 0), 0));
  const shares = cells.flatMap((c) => colSums.filter((s) => s !== 0).map((s) => (100 * c) / s));
  for (const m of text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g)) {
    const raw = m[0].replace(/,/g, '');
    const x = Number(raw);
    if (!Number.isFinite(x)) continue;
    if (Math.abs(x) <= 31 && Number.isInteger(x)) continue;
    if (Number.isInteger(x) && x >= 1900 && x <= 2100) continue;
    const decimals = raw.includes('.') ? raw.length - raw.indexOf('.') - 1 : 0;
    const tol = (v: number): number => Math.max(0.5 * 10 ** -decimals, Math.abs(v) * 0.005);
    const near = (v: number): boolean => Math.abs(Math.abs(v) - Math.abs(x)) <= tol(v) || Math.abs(Math.abs(v) / 1000 - Math.abs(x)) <= tol(v / 1000) || Math.abs(Math.abs(v) / 1e6 - Math.abs(x)) <= tol(v / 1e6);
    if (!cells.some(near) && !colSums.some(near) && !shares.some(near)) return false;
  }
  return true;
}

function chartOf(columns: string[], rows: unknown[][], title: string): ChartRequest | undefined {
  if (columns.length < 2 || rows.length < 2 || rows.length > 60) return undefined;
  const isNum = (i: number): boolean => rows.every((r) => r[i] === null || typeof r[i] === 'number');
  const isDate = rows.every((r) => typeof r[0] === 'string' && /^\d{4}-\d{2}-\d{2}/.test(r[0]));
  if (!isNum(1) || (isNum(0) && !isDate)) return undefined;
  const objs = rows.map((r) => ({ [columns[0] ?? 'x']: r[0], [columns[1] ?? 'y']: r[1] }));
  return { kind: isDate ? 'line' : 'bar', title, x: columns[0] ?? 'x', y: columns[1] ?? 'y', xType: isDate ? 'temporal' : 'nominal', rows: objs, keepOrder: true };
}

/** What the result caps left out, in words: a cut result must never read as the whole one. */
function capsNote(r: QueryResult): string {
  const notes: string[] = [];
  if (r.truncatedBy === 'bytes') notes.push(`The result was cut at ${formatBytes(MAX_RESULT_BYTES)}: only its first ${r.rows.length} rows are shown.`);
  else if (r.truncated) notes.push(`The result was capped at ${r.rows.length} rows.`);
  if (r.cellsCut !== undefined) notes.push(`${r.cellsCut} value${r.cellsCut === 1 ? ' was' : 's were'} longer than ${formatBytes(MAX_CELL_BYTES)} and ${r.cellsCut === 1 ? 'was' : 'were'} cut (they end with …).`);
  return notes.length > 0 ? `_${notes.join(' ')}_` : '';
}

/**
 * Answers with SQL the model wrote (used only when no plan fits the question): guarded, capped and
 * labelled as the model's. True when it produced the whole answer, false to fall back (nothing is
 * left half-done).
 */
export async function answerWithSql(cfg: LlmConfig & { label?: string }, ctx: AnswerContext, writer: AnswerWriter, ex: Executor, tables: TableMeta[], sql: string, builtin?: Plan): Promise<boolean> {
  const who = cfg.label ?? cfg.model;
  const step = writer.step(`Run the SQL written by the model (${who}): no plan of the engine fits the question`);
  const language = LANGUAGES[ctx.languageType] ?? 'English';
  let result;
  try {
    result = await ex.runRaw(withTables(tables.map((t) => executedCte(t)), sql), withTables(tables.map((t) => shownCte(t)), sql), `SQL written by the model (${who})`);
  } catch (err) {
    // Any failure (guard, DuckDB) hands the question back to the built-in engine.
    ctx.signal.throwIfAborted();
    step.fail();
    // One the query itself caused, and that no cap could cut, is named rather than hidden.
    if (err instanceof ResultTooLargeError) writer.step('Stop the model\'s query: its result is too large to compute (rows of values megabytes long); answer without it').fail();
    return false;
  }
  const columns = result.columns.map((c) => c.name);
  writer.code(step, sqlBlock(shownPreamble(tables), ex.ran.map((r) => ({ comment: r.comment, sql: r.shown }))));
  const title = builtin !== undefined ? describePlan(builtin) : ctx.question.slice(0, 60);
  await writer.table(step, fileNameFor(title, 'csv'), toCsv(columns, result.rows));
  step.done();
  const chart = chartOf(columns, result.rows, title);
  if (chart) {
    const cs = writer.step('Draw a chart of the result');
    try {
      await writer.image(cs, fileNameFor(`${title} chart`, 'svg'), await renderChart(chart));
      cs.done();
    } catch {
      cs.fail();
    }
  }
  let message: string | undefined;
  try {
    const narrative = await chat(cfg, [
      { role: 'system', content: `You are a data analyst. In ${language}, state the finding of the query result in 2 to 4 sentences with its key numbers. Use only numbers that appear in the result. No preamble.` },
      { role: 'user', content: `Question: ${ctx.question}\n\nSQL:\n${sql}\n\nResult (CSV, first 50 rows):\n${toCsv(columns, result.rows.slice(0, 50))}` },
    ], ctx.signal);
    const text = narrative.trim();
    if (text.length > 0 && text.length <= 4000 && numbersSupported(text, result.rows)) message = text;
  } catch {
    ctx.signal.throwIfAborted();
  }
  if (message === undefined) {
    const first = result.rows[0];
    message = result.rows.length === 0 ? 'The query returned no rows.'
      : `The query returned ${result.rows.length} row${result.rows.length === 1 ? '' : 's'}; the first: ${columns.map((c, i) => `${md(c)} = ${md(fmtValue(first?.[i]))}`).join(', ')}.`;
  }
  const caps = capsNote(result);
  if (caps !== '') message = `${message}\n\n${caps}`;
  message = `${message}\n\n_Answered with SQL written by the model (${md(who)}), shown above: no plan of the engine fits this question, so its checks of the reading do not apply._`;
  writer.respond(message, suggestQuestions(tables, builtin), tables.map((t) => t.source));
  return true;
}
