/**
 * Emits an answer in the real service's order: Analyze-stage steps (TASK running -> blocks -> TASK
 * done), then the Respond group (TASK running, MESSAGE fragments, the result TABLE/IMAGE, QUESTIONS, TASK done), then
 * SOURCES. Messages are streamed in small fragments, as a model would type them.
 */
import type { Block, BlockPlace, DataSource, SourceRef, TaskStatus } from '../../shared/domain';
import type { AnswerContext } from '../engine';
import { fileExtension, wordsSlug } from '../../shared/fileNames';
import { commentText } from '../profile/profileSql';
import { fold } from '../language/words';

const RESPOND: BlockPlace = { groupId: 'respond', groupName: 'Conclusions', stage: 'Respond' };
/** Longest MESSAGE fragment; breaks fall on whitespace so words are never split. */
const FRAGMENT_CHARS = 72;

/** Splits text into fragments at whitespace; their concatenation is the text. */
export function messageFragments(text: string, max = FRAGMENT_CHARS): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    const nl = rest.lastIndexOf('\n', max);
    cut = Math.max(cut, nl);
    if (cut <= 0) cut = max;
    out.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

/** A file name for a published result: `total-revenue-by-region.csv`, never cut mid-word. */
export function fileNameFor(description: string, ext: string): string {
  return `${wordsSlug(fold(description), 60) || 'x'}.${ext}`;
}

/** A fenced ```sql block; the fence outgrows any backtick run inside. */
export function sqlBlock(header: readonly string[], statements: ReadonlyArray<{ comment: string; sql: string }>): string {
  const head = header.map((h) => `-- ${commentText(h)}`).join('\n');
  const body = statements.map((s) => `${s.comment ? `-- ${commentText(s.comment)}\n` : ''}${s.sql};`).join('\n\n');
  const text = head ? `${head}\n\n${body}` : body;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}sql\n${text}\n${fence}`;
}

export interface Step {
  place: BlockPlace;
  done(): void;
  fail(): void;
}

export class AnswerWriter {
  private steps = 0;
  private readonly results: Block[] = [];

  constructor(private readonly ctx: AnswerContext) {}

  private task(place: BlockPlace, status: TaskStatus): void {
    this.ctx.emit({ kind: 'TASK', place, task: { id: place.groupId, name: place.groupName ?? '', status, stage: place.stage } });
  }

  private block(block: Block): void {
    this.ctx.emit({ kind: 'BLOCK', block });
  }

  /** Opens an Analyze step; the caller ends it with done() or fail(). */
  step(name: string): Step {
    const place: BlockPlace = { groupId: `step-${++this.steps}`, groupName: name.length > 200 ? `${name.slice(0, 197)}...` : name, stage: 'Analyze' };
    this.task(place, 'running');
    let open = true;
    return {
      place,
      done: () => {
        if (open) this.task(place, 'done');
        open = false;
      },
      fail: () => {
        if (open) this.task(place, 'error');
        open = false;
      },
    };
  }

  code(step: Step, content: string): void {
    this.block({ ...step.place, type: 'CODE', content });
  }

  /**
   * Result files are stored while their step runs, but shown in the Respond group with the finding:
   * panels collapse the Analyze steps once an answer is done, and the table and chart are the
   * answer, not a detail of how it was reached.
   */
  async table(_step: Step, name: string, csv: string): Promise<void> {
    const ref = await this.ctx.publishFile(name, csv, 'text/csv; charset=utf-8');
    this.results.push({ ...RESPOND, type: 'TABLE', content: ref });
  }

  async image(_step: Step, name: string, svg: string): Promise<void> {
    const ref = await this.ctx.publishFile(name, svg, 'image/svg+xml');
    this.results.push({ ...RESPOND, type: 'IMAGE', content: ref });
  }

  /** The Respond group and the SOURCES block; ends the answer. */
  respond(markdown: string, questions: readonly string[], sources: readonly DataSource[], refs?: SourceRef[]): void {
    this.task(RESPOND, 'running');
    for (const piece of messageFragments(markdown)) this.block({ ...RESPOND, type: 'MESSAGE', content: piece });
    for (const file of this.results.splice(0)) this.block(file);
    if (questions.length > 0) this.block({ groupId: '-1', stage: 'Respond', type: 'QUESTIONS', content: [...questions] });
    this.task(RESPOND, 'done');
    const list = refs ?? [...new Map(sources.map((s) => [s.id, s])).values()].map((s) => sourceRef(s));
    if (list.length > 0) this.block({ groupId: '', stage: 'Respond', type: 'SOURCES', content: list });
  }
}

/** A SOURCES item for a data source. */
export function sourceRef(s: DataSource, extra?: { pageNo?: number; content?: string }): SourceRef {
  const ref: SourceRef = {
    source: s.fileName, datasourceId: s.id, datasetId: s.datasetId, fileType: fileExtension(s.fileName).replace(/^\./, ''), externalId: '',
  };
  if (extra?.pageNo !== undefined) ref.pageNo = extra.pageNo;
  if (extra?.content !== undefined) ref.content = extra.content;
  return ref;
}
