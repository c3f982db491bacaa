/**
 * A profile-only engine: whatever the question, it answers with a genuine profile of the selected
 * data, computed by DuckDB. The service runs the natural-language engine (engine/localEngine.ts);
 * this one gives the HTTP tests answers that do not depend on question understanding. The event
 * sequence follows the real service: Analyze-stage steps (TASK running -> CODE, TABLE -> TASK done),
 * then the Respond group (TASK running, MESSAGE fragments, QUESTIONS, TASK done), then SOURCES.
 */
import type { Block, BlockPlace, DataSource, TaskStatus } from '../../shared/domain';
import type { AnalysisEngine, AnswerContext, IngestedTable } from '../engine';
import type { DuckDbStore } from '../duckdb/duckDbStore';
import { slug } from '../duckdb/sqlText';
import { sourceRef } from '../engine/answerWriter';
import { tableLabel } from '../engine/schemaIndex';
import { num, str } from './cellValues';
import { toCsv } from './csvFormat';
import { buildProfileSql, classifyType, PROFILE_COLUMNS, sqlCodeBlock } from './profileSql';
import { followUpQuestions, fragments, plural, tableSection, type ColumnProfile, type TableProfile } from './profileSummary';
import { textFacts, textSection } from './textSummary';

/** Each profile statement may run this long; a profile of a huge table is still bounded. */
const QUERY_TIMEOUT_MS = 120_000;

const RESPOND: BlockPlace = { groupId: 'respond', groupName: 'Conclusions', stage: 'Respond' };

export class ProfileEngine implements AnalysisEngine {
  constructor(private readonly store: DuckDbStore) {}

  async answer(ctx: AnswerContext): Promise<void> {
    ctx.signal.throwIfAborted();
    if (ctx.sources.length === 0) {
      this.respond(ctx, [
        'No data sources are selected for this question, so there is nothing to analyze yet.',
        '',
        'Add a file to a dataset (CSV, TSV, JSON, XLSX or XLS for tables; MD, MDX or TXT for text), wait until it is synched, then ask again with the dataset or its data sources selected.',
      ].join('\n'), ['How do I add a CSV file as a data source?']);
      return;
    }
    const profiles: TableProfile[] = [];
    const sections: string[] = [];
    const textLabels: string[] = [];
    let step = 0;
    for (const { source, ingest } of ctx.sources) {
      if (ingest.kind === 'tables') {
        for (const t of ingest.tables) {
          const profile = await this.profileStep(ctx, `step-${++step}`, source, t);
          if (profile) {
            profiles.push(profile);
            sections.push(tableSection(profile));
          } else {
            sections.push(`**${tableLabel(source, t)}**: could not be profiled (the table is missing or unreadable); re-upload the file.`);
          }
        }
      } else {
        const text = await this.textStep(ctx, `step-${++step}`, source, ingest.chars);
        if (text !== undefined) {
          sections.push(textSection(source.fileName, textFacts(text)));
          textLabels.push(source.fileName);
        } else {
          sections.push(`**${source.fileName}**: its text is missing; re-upload the file.`);
        }
      }
    }
    const closing = profiles.length > 0
      ? '\n\nThe full per-column profile is in the attached table; the SQL above reproduces it in DuckDB.'
      : '';
    this.respond(ctx, sections.join('\n\n') + closing, followUpQuestions(profiles, textLabels));
  }

  private task(ctx: AnswerContext, place: BlockPlace, status: TaskStatus): void {
    ctx.emit({
      kind: 'TASK',
      place,
      task: { id: place.groupId, name: place.groupName ?? '', status, stage: place.stage },
    });
  }

  private block(ctx: AnswerContext, block: Block): void {
    ctx.emit({ kind: 'BLOCK', block });
  }

  /** One Analyze step: profile a table, show its SQL (CODE) and the profile (TABLE). */
  private async profileStep(ctx: AnswerContext, id: string, source: DataSource, t: IngestedTable): Promise<TableProfile | undefined> {
    const label = tableLabel(source, t);
    const place: BlockPlace = {
      groupId: id,
      groupName: `Profile ${label} (${plural(t.rowCount, 'row')}, ${plural(t.columns.length, 'column')})`,
      stage: 'Analyze',
    };
    this.task(ctx, place, 'running');
    try {
      const sql = buildProfileSql(t.table, t.columns);
      const opts = { signal: ctx.signal, timeoutMs: QUERY_TIMEOUT_MS };
      const ran: Array<{ comment: string; sql: string }> = [];
      let rowCount: number;
      let duplicateRows: number | undefined;
      try {
        const o = await this.store.query(sql.overview, [], opts);
        rowCount = num(o.rows[0]?.[0]);
        duplicateRows = num(o.rows[0]?.[1]);
        ran.push({ comment: `Rows and exact duplicate rows of ${label}`, sql: sql.overview });
      } catch {
        ctx.signal.throwIfAborted();
        // DISTINCT cannot compare some column types; the row count alone still runs.
        const o = await this.store.query(sql.overviewSimple, [], opts);
        rowCount = num(o.rows[0]?.[0]);
        ran.push({ comment: `Rows of ${label}`, sql: sql.overviewSimple });
      }
      const result = await this.store.query(sql.columns, [], { ...opts, maxRows: sql.profiled.length + 1 });
      ran.push({ comment: `Profile of ${label}: one row per column`, sql: sql.columns });
      const columns: ColumnProfile[] = result.rows.map((r) => ({
        name: String(r[0]), type: String(r[1]), cls: classifyType(String(r[1])),
        nonNull: num(r[2]), nulls: num(r[3]), distinct: num(r[4]),
        min: str(r[5]), max: str(r[6]), mean: str(r[7]), top: str(r[8]),
      }));
      const csv = toCsv(PROFILE_COLUMNS, result.rows);
      const fileBase = slug(`${source.fileName.replace(/\.[^.]+$/, '')}${t.sheet ? `-${t.sheet}` : ''}`, 60).replace(/_/g, '-');
      const ref = await ctx.publishFile(`profile-${fileBase}.csv`, csv, 'text/csv; charset=utf-8');
      this.block(ctx, { ...place, type: 'CODE', content: sqlCodeBlock(ran) });
      this.block(ctx, { ...place, type: 'TABLE', content: ref });
      this.task(ctx, place, 'done');
      const profile: TableProfile = { label, rowCount, columnCount: t.columns.length, columns };
      if (duplicateRows !== undefined) profile.duplicateRows = duplicateRows;
      return profile;
    } catch {
      // The step shows as failed and the summary says so; other tables are still profiled.
      ctx.signal.throwIfAborted();
      this.task(ctx, place, 'error');
      return undefined;
    }
  }

  /** One Analyze step: read a text source back from the store. */
  private async textStep(ctx: AnswerContext, id: string, source: DataSource, chars: number): Promise<string | undefined> {
    const place: BlockPlace = { groupId: id, groupName: `Read ${source.fileName} (${plural(chars, 'character')})`, stage: 'Analyze' };
    this.task(ctx, place, 'running');
    const text = await this.store.readText(source.id);
    ctx.signal.throwIfAborted();
    this.task(ctx, place, text === undefined ? 'error' : 'done');
    return text;
  }

  /** The Respond group (TASK running, MESSAGE fragments, QUESTIONS, TASK done), then SOURCES. */
  private respond(ctx: AnswerContext, markdown: string, questions: string[]): void {
    this.task(ctx, RESPOND, 'running');
    for (const piece of fragments(markdown)) this.block(ctx, { ...RESPOND, type: 'MESSAGE', content: piece });
    if (questions.length > 0) this.block(ctx, { groupId: '-1', stage: 'Respond', type: 'QUESTIONS', content: questions });
    this.task(ctx, RESPOND, 'done');
    const refs = ctx.sources.map(({ source }) => sourceRef(source));
    if (refs.length > 0) this.block(ctx, { groupId: '', stage: 'Respond', type: 'SOURCES', content: refs });
  }
}
