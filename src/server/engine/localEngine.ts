/**
 * The local service's analysis engine: answers natural-language questions about the selected data
 * sources. Tables get question understanding -> guarded SQL -> TABLE, chart and finding; documents
 * get retrieval with quoted passages; `jobMode` AUTO chooses between them, DATA_ANALYTICS forces
 * analysis. With an OpenAI-compatible model configured, the model proposes SQL and narrative first
 * and the built-in engine takes over on any failure.
 */
import type { DataSource } from '../../shared/domain';
import type { AnalysisEngine, AnswerContext, IngestResult } from '../engine';
import { QueryError, QueryTimeoutError, type DuckDbStore } from '../duckdb/duckDbStore';
import { AnswerWriter } from './answerWriter';
import { md } from './describe';
import { Executor } from './executor';
import { differingRivals, askMessage, optionsFor } from './ambiguity';
import type { GlossaryEntry } from '../../shared/glossary';
import { readQuestion, type Decision } from './reader';
import { readingSentence } from './readingLine';
import { llmConfigFromEnv, type LlmConfig } from '../model/llmClient';
import { answerWithSql } from '../model/sqlAnswer';
import { consult } from '../model/consult';
import { crossCheck, engineWrote, modelCanPlan, type Verdict } from '../model/crossCheck';
import { runOverview } from './overviewRunner';
import { runStatsOverview } from './statsOverview';
import { runPlan } from './planRunner';
import { warmCharting } from './charts';
import { RetrievalIndex } from './retrieval';
import { answerFromDocuments } from './retrievalAnswer';
import { SchemaIndex } from './schemaIndex';
import { SqlRejected } from './sqlGuard';
import { describeColumns, suggestQuestions } from './suggestions';
import type { TableMeta } from './types';

export interface LocalEngineOptions {
  /** Model to consult first; `null` disables it; undefined reads TEAM_DATA_LLM_* from the environment. */
  llm?: LlmConfig | null;
}

/**
 * Above this many rows a file read in place gets its overview from the ingest scan: the exact
 * profile reads the file a dozen times (half a minute on 1 GB), and distinct counts of this many
 * rows are estimates in the question index anyway.
 */
export const QUICK_OVERVIEW_ROWS = 200_000;

/** Words that point at documents rather than numbers. */
const DOCUMENT_CUES = /\b(say|says|said|according to|mention|mentions|document|documents|doc|docs|guide|manual|policy|policies|handbook|explain|procedure|process for|how do i|how to|what is the rule|faq|readme|notes?)\b/i;

function plainError(err: unknown): string | undefined {
  if (err instanceof QueryTimeoutError) return `the query took longer than ${Math.round(err.timeoutMs / 1000)} s and was stopped; narrow it down (for example with a filter on a date or a category)`;
  if (err instanceof SqlRejected) return `the generated SQL was refused by the safety check (${err.message})`;
  if (err instanceof QueryError) return `DuckDB could not run the query (${(err.message.split('\n')[0] ?? '').slice(0, 200)})`;
  return undefined;
}

/**
 * The answer to a question with no data selected and none in the session: the datasets that could
 * answer it, by name, or how to add data when there is none. Never "add files" while data exists.
 */
export function noDataMessage(datasets: ReadonlyArray<{ name: string; files: number }>): string {
  if (datasets.length === 0) {
    return 'No data is selected for this question, and there is no data yet: this service answers from your data.\n\nAdd a file to a dataset (CSV, TSV, JSON, XLSX or XLS for tables; MD, MDX, TXT, PDF, DOCX or PPTX for documents), wait until it is ready, then ask again with that dataset selected.';
  }
  const shown = datasets.slice(0, 10).map((d) => `- **${md(d.name || '(unnamed dataset)')}** (${d.files} ${d.files === 1 ? 'file' : 'files'})`).join('\n');
  const more = datasets.length > 10 ? `\n- and ${datasets.length - 10} more` : '';
  const which = datasets.length === 1 ? 'this dataset' : 'one of these datasets';
  return `No data is selected for this question, and this service answers from your data. Select ${which} for the question and ask again:\n\n${shown}${more}`;
}

export class LocalAnalysisEngine implements AnalysisEngine {
  private readonly schema: SchemaIndex;
  private readonly retrieval = new RetrievalIndex();
  private readonly llm: LlmConfig | undefined;

  constructor(private readonly store: DuckDbStore, options: LocalEngineOptions = {}) {
    this.schema = new SchemaIndex(async (sql, signal) => (await store.query(sql, [], { signal, timeoutMs: 60_000, maxRows: 100_000 })).rows);
    this.llm = options.llm === null ? undefined : options.llm ?? llmConfigFromEnv(process.env);
  }

  async answer(ctx: AnswerContext): Promise<void> {
    ctx.signal.throwIfAborted();
    const writer = new AnswerWriter(ctx);
    if (ctx.sources.length === 0) {
      writer.respond(noDataMessage(ctx.datasets ?? []), [], []);
      return;
    }
    if (ctx.dataFrom === 'session') {
      // No data was selected ("No dataset"): this engine answers only from data, so it continues
      // with what the session asked about before, and says so before any number.
      writer.step(`Use the data of this session's earlier questions: ${ctx.sources.map((s) => s.source.fileName).join(', ')} (no data was selected)`).done();
    }
    const hasTables = ctx.sources.some((s) => s.ingest.kind === 'tables');
    const hasDocs = ctx.sources.some((s) => s.ingest.kind === 'text');
    if (!hasTables) {
      if (ctx.jobMode === 'DATA_ANALYTICS') {
        const names = ctx.sources.map((s) => md(s.source.fileName)).join(', ');
        writer.respond(`Data analysis needs a table (CSV, TSV, JSON, XLSX or XLS), and the selected sources are documents only: ${names}. Switch the session's job mode to AUTO to search them, or add a table.`, [], ctx.sources.map((s) => s.source));
        return;
      }
      await this.retrieve(ctx, writer);
      return;
    }
    await this.analyze(ctx, writer, hasDocs && ctx.jobMode !== 'DATA_ANALYTICS');
  }

  async firstQuestions(sources: ReadonlyArray<{ source: DataSource; ingest: IngestResult }>): Promise<string[]> {
    const tabular = sources.filter((s) => s.ingest.kind === 'tables');
    const out = tabular.length > 0 ? suggestQuestions(await this.indexed(tabular)) : [];
    // Documents are searched, so a question naming the file's subject is one retrieval answers.
    for (const s of sources) if (s.ingest.kind === 'text' && out.length < 4) out.push(`What are the main points of ${s.source.fileName}?`);
    return out;
  }

  /**
   * A large file read in place with a columnar cache has its question index built as soon as the
   * copy is made (the ingest queue tells once it is): the overview is answered from the read's
   * statistics, and the first question after it would otherwise wait for the index (1.5 s on a 1 GB
   * CSV's cache). Without a cache the index reads the file a dozen times, so it waits until an
   * overview asks for it.
   */
  prepare(s: { source: DataSource; ingest: IngestResult }): void {
    if (s.ingest.kind !== 'tables' || !s.ingest.tables.some((t) => t.cache !== undefined && t.rowCount > QUICK_OVERVIEW_ROWS)) return;
    void this.indexed([s]).catch(() => undefined);
  }

  /**
   * The question index of these sources, built once no columnar copy of them is being written: the
   * index's dozens of scans would otherwise read the CSV beside the copy, on the same cores, and the
   * copy then stands for the file (a copy not kept leaves the index to read the file, as before).
   */
  private async indexed(sources: ReadonlyArray<{ source: DataSource; ingest: IngestResult }>, signal?: AbortSignal): Promise<TableMeta[]> {
    await this.store.copiesSettled(sources.map((s) => s.source.id), signal);
    signal?.throwIfAborted();
    return this.schema.tables(sources, signal);
  }

  private async retrieve(ctx: AnswerContext, writer: AnswerWriter): Promise<void> {
    const r = await answerFromDocuments(ctx, writer, this.retrieval, (id) => this.store.readText(id));
    writer.respond(r.message, r.questions, [], r.refs);
  }

  /**
   * Files read in place carry the statistics of their ingest scan. When one of them is large and the
   * question is an overview, read completely (every word placed) against those statistics alone, it
   * is answered from them: the first answer on a large file then costs no further read. Small files
   * get the exact profile (every distinct count, duplicate rows), which costs them little. Anything
   * else, or a model configured, takes the full path. Returns whether it answered.
   */
  private async quickOverview(ctx: AnswerContext, writer: AnswerWriter, tablesOnly: boolean): Promise<boolean> {
    if (!tablesOnly) return false;
    const quick = this.schema.quickTables(ctx.sources);
    if (quick === undefined || !quick.some((t) => t.rowCount > QUICK_OVERVIEW_ROWS)) return false;
    const d = readQuestion(ctx.question, ctx.history.map((h) => h.question), quick, ctx.glossary ?? []);
    if (d.kind !== 'answer' || d.rivals.length > 0 || d.reading.plan.kind !== 'overview') return false;
    const plan = d.reading.plan;
    const o = await runStatsOverview(plan.tables, writer);
    const next = suggestQuestions(plan.tables);
    writer.respond(`${readingSentence(plan)}:\n\n${o.message}`, next, sourcesOf(plan.tables));
    // A first question's reading and chart cost about 0.4 s more than later ones (the reader's paths
    // run for the first time, Vega loads): paid while the overview is read, once it has gone out
    // (run at once, it held the overview's own answer back).
    setTimeout(() => {
      try {
        for (const q of next) readQuestion(q, [], quick, ctx.glossary ?? []);
      } catch {
        // Only a warm-up: the question itself reports any failure.
      }
      void warmCharting();
    }, 250).unref();
    // The next question needs the full index (values, number formats); it is built meanwhile.
    void this.indexed(ctx.sources, ctx.signal).catch(() => undefined);
    return true;
  }

  private async analyze(ctx: AnswerContext, writer: AnswerWriter, mayRetrieve: boolean): Promise<void> {
    const tabular = ctx.sources.filter((s) => s.ingest.kind === 'tables');
    const labels = tabular.map((s) => s.source.fileName).join(', ');
    if (await this.quickOverview(ctx, writer, tabular.length === ctx.sources.length)) return;
    const tables = await this.indexed(tabular.map((s) => ({ source: s.source, ingest: s.ingest })), ctx.signal);
    const allowed = tables.map((t) => t.table);
    const ex = new Executor(this.store, allowed, ctx.signal);
    const history = ctx.history.map((h) => h.question);
    let glossary: readonly GlossaryEntry[] = ctx.glossary ?? [];
    let d: Decision = readQuestion(ctx.question, history, tables, glossary);
    let asked = ctx.question;
    if (d.kind === 'define') {
      // A chosen meaning: kept in the dataset's glossary, and the question before it answered with it.
      const entry = d.entry;
      await ctx.define?.(entry);
      glossary = [...glossary.filter((g) => g.phrase !== entry.phrase), entry];
      const step = writer.step(`Remember that "${entry.phrase}" means ${entry.value !== undefined ? `"${entry.value}" of ` : ''}\`${entry.column}\``);
      step.done();
      const before = history[history.length - 1];
      if (before === undefined) {
        writer.respond(`Noted: from now on "${md(entry.phrase)}" means ${entry.value !== undefined ? `the value "${md(entry.value)}" of ` : ''}\`${entry.column}\` in questions about this dataset.`, suggestQuestions(tables), tables.map((t) => t.source));
        return;
      }
      asked = before;
      d = readQuestion(before, history.slice(0, -1), tables, glossary);
    }
    const model = ctx.model ?? this.llm;
    let verdict: Verdict = { kind: 'engine' };
    if (model !== undefined && d.kind !== 'define' && modelCanPlan(d) && !engineWrote(d, asked, tables) && !(mayRetrieve && DOCUMENT_CUES.test(asked))) {
      // The model proposes a plan; the engine checks it and sets it against its own reading.
      const label = 'label' in model && typeof model.label === 'string' ? model.label : model.model;
      const step = writer.step(`Ask ${label} for a plan`);
      const c = await consult(model, { question: asked, history: asked === ctx.question ? history : history.slice(0, -1), tables, glossary, signal: ctx.signal }, ex);
      if (c.kind === 'failed' || c.kind === 'rejected') step.fail();
      else step.done();
      verdict = await crossCheck(c, d, label, asked, tables, ex, writer);
      if (verdict.kind === 'ask') {
        writer.respond(verdict.message, verdict.options, tables.map((t) => t.source));
        return;
      }
      if (verdict.kind === 'sql') {
        if (await answerWithSql({ ...model, label }, ctx, writer, ex, tables, verdict.sql)) return;
        ex.reset();
        verdict = { kind: 'engine', note: `_The SQL written by the model (${md(label)}) could not be run; this answer is the built-in engine's._` };
      }
      if (verdict.kind === 'answer') d = { kind: 'answer', reading: verdict.reading, rivals: [] };
    }
    const note = verdict.note !== undefined ? `\n\n${verdict.note}` : '';
    const offers = verdict.kind === 'answer' ? verdict.offers : [];
    if (d.kind === 'answer' && d.rivals.length > 0) {
      // Close readings are only a problem when they give different answers.
      const differ = await differingRivals(d.reading, d.rivals, ex);
      if (differ.length > 0) {
        const options = optionsFor(asked, [d.reading, ...differ], tables);
        if (options.length > 1) {
          const step = writer.step(`Read the question in ${options.length} ways that give different answers`);
          step.done();
          writer.respond(askMessage(options), options.map((o) => o.question).slice(0, 4), tables.map((t) => t.source));
          return;
        }
      }
    }
    if (d.kind === 'answer' && d.reading.plan.kind !== 'overview') {
      // The reading of the question, so a wrong interpretation is visible before any number.
      const whose = verdict.kind === 'answer' && verdict.by === 'model' && model !== undefined ? ` (the model's reading: the built-in engine could not place every word)` : '';
      const step = writer.step(`Read the question as: ${readingSentence(d.reading.plan, tables)}${whose}`);
      step.done();
    } else if (d.kind === 'refuse') writer.step(`Match the question to the columns and values of ${labels}`).done();
    if (mayRetrieve && (d.kind === 'refuse' || DOCUMENT_CUES.test(ctx.question))) {
      const r = await answerFromDocuments(ctx, writer, this.retrieval, (id) => this.store.readText(id));
      if (r.found || d.kind === 'refuse') {
        writer.respond(r.message, r.questions, [], r.refs);
        return;
      }
    }
    if (d.kind !== 'answer') {
      const bindings = d.kind === 'refuse' ? d.bindings : [];
      const offer = bindings.length > 0
        ? ['', `Tell me what ${[...new Set(bindings.map((b) => `"${md(b.word)}"`))].join(' and ')} means and I will answer at once (the choice is kept for later questions):`, ...bindings.map((b) => `- ${b.value !== undefined ? `the value "${md(b.value)}" of ` : ''}\`${b.column}\` (${md(b.table)})`)]
        : [];
      const text = [
        `I can't answer that from ${md(labels)}: ${md(d.kind === 'refuse' ? d.reason : 'the question could not be read')}. I won't guess numbers.`,
        ...offer,
        '',
        ...tables.map((t) => `**${md(t.label)}** has ${t.columns.length} columns: ${describeColumns(t)}.`),
      ].join('\n') + note;
      writer.respond(text, bindings.length > 0 ? bindings.map((b) => b.question).slice(0, 6) : suggestQuestions(tables), tables.map((t) => t.source));
      return;
    }
    const u = d.reading.plan;
    try {
      if (u.kind === 'overview') {
        const o = await runOverview(u.tables, ex, writer);
        writer.respond(`${readingSentence(u)}:\n\n${o.message}${note}`, suggestQuestions(u.tables), sourcesOf(u.tables));
        return;
      }
      const a = await runPlan(u, ex, writer, tables);
      writer.respond(`${a.message}${note}`, offers.length > 0 ? [...offers, ...suggestQuestions(tables, u).slice(0, 3)] : suggestQuestions(tables, u), sourcesOf(a.tables));
    } catch (err) {
      ctx.signal.throwIfAborted();
      const reason = plainError(err);
      if (reason === undefined) throw err;
      writer.respond(`The analysis could not be completed: ${md(reason)}.`, suggestQuestions(tables), tables.map((t) => t.source));
    }
  }
}

function sourcesOf(tables: readonly TableMeta[]): DataSource[] {
  return tables.map((t) => t.source);
}
