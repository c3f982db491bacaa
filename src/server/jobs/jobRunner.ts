/**
 * Runs a planned job: JOB_ID, TITLE_GENERATION (first job of a session), the engine's events,
 * then END_MARK, or ERROR + `[ERROR]` when the engine fails. Every event goes through one
 * AnswerBuilder, so the non-stream response and history hold exactly what the stream folded to.
 * A streamed job whose client goes away before the end is cancelled: its queries are interrupted
 * and history records it as cancelled with what it had produced. Shutdown aborts every job.
 */
import { AnswerBuilder, answerBlocks, historyBlocks } from '../../shared/answerFold';
import type { Answer, Block, FileRef, JobEvent } from '../../shared/domain';
import { ErrorCode, describeErrorCode } from '../../shared/errorCodes';
import type { AnalysisEngine, PriorTurn } from '../engine';
import { FileVault } from '../files/fileVault';
import { newId } from '../ids';
import { withEntry } from '../../shared/glossary';
import type { HistoryStore } from '../state/historyStore';
import type { JobJournal } from './jobJournal';
import type { DatasetRecord } from '../state/records';
import type { Logger, MetaStore } from '../state/metaStore';
import type { JobPlan } from './jobPlan';
import { titleFromQuestion } from './title';

export interface JobOutcome {
  jobId: string;
  answer: Answer;
  blocks: Block[];
  ok: boolean;
}

export interface JobRunnerOptions {
  meta: MetaStore;
  history: HistoryStore;
  vault: FileVault;
  engine: AnalysisEngine;
  log: Logger;
  /** Where jobs in flight are noted, so a kill mid-job leaves a trace (see jobJournal.ts). */
  journal?: JobJournal;
}

/** The reason a job's controller is aborted with when its client cancelled it. */
class JobCancelled extends Error {
  constructor() {
    super('the job was cancelled');
    this.name = 'AbortError';
  }
}

export class JobRunner {
  /** One controller per job (a shared signal would collect a listener per query of every job). */
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  private readonly running = new Set<Promise<unknown>>();
  /** Sessions with a job in flight, so two concurrent first jobs do not both generate a title. */
  private readonly activeSessions = new Map<string, number>();

  constructor(private readonly o: JobRunnerOptions) {}

  /**
   * Runs the job, calling `sink` with each event as it happens; `cancel` (the client went away)
   * stops it. Never rejects.
   */
  run(plan: JobPlan, sink: (e: JobEvent) => void, cancel?: AbortSignal): Promise<JobOutcome> {
    const p = this.execute(plan, sink, cancel);
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
    return p;
  }

  /** Whether a job is running (a shared service never stops for idleness while one does). */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Aborts running jobs and waits for them to settle. */
  async close(): Promise<void> {
    this.closed = true;
    for (const a of this.aborts) a.abort(new Error('the local service is shutting down'));
    await Promise.all([...this.running].map((p) => p.catch(() => undefined)));
  }

  private async history(plan: JobPlan): Promise<PriorTurn[]> {
    const n = plan.session.maxMessagesInContext;
    if (n <= 0) return [];
    const records = (await this.o.history.list(plan.session.id)).filter((r) => r.ok);
    return records.slice(-n).map((r) => ({ question: r.question, blocks: this.o.vault.fresh(r.blocks) }));
  }

  private async execute(plan: JobPlan, sink: (e: JobEvent) => void, cancel: AbortSignal | undefined): Promise<JobOutcome> {
    const { meta, history, vault, engine, log } = this.o;
    const datasetsOf = (p: JobPlan): DatasetRecord[] => [...new Set(p.sources.map((s) => s.source.datasetId))]
      .map((id) => meta.datasets.get(id)).filter((d): d is DatasetRecord => d !== undefined);
    const jobId = newId();
    const createdAt = Date.now();
    const sid = plan.session.id;
    const builder = new AnswerBuilder();
    let open = true;
    const emit = (e: JobEvent): void => {
      builder.push(e);
      try {
        sink(e);
      } catch (err) {
        log('warn', `could not deliver a job event: ${String(err)}`);
      }
    };
    const firstJob = (await history.list(sid)).length === 0 && !this.activeSessions.has(sid);
    this.activeSessions.set(sid, (this.activeSessions.get(sid) ?? 0) + 1);
    const published = new Map<string, string>();
    const abort = new AbortController();
    this.aborts.add(abort);
    if (this.closed) abort.abort(new Error('the local service is shutting down'));
    const onCancel = (): void => abort.abort(new JobCancelled());
    if (cancel?.aborted === true) onCancel();
    else cancel?.addEventListener('abort', onCancel, { once: true });
    let ok = true;
    const journal = this.o.journal;
    await journal?.begin(jobId, sid, plan.question, createdAt).catch((e: unknown) => log('warn', `could not note a job in flight: ${String(e)}`));
    try {
      emit({ kind: 'JOB_ID', jobId });
      if (firstJob) {
        // A placeholder title is replaced by one made from the question; an explicit title stays,
        // and the event carries whichever title the session ends up with.
        if (plan.session.autoTitle && meta.sessions.has(sid)) {
          plan.session.title = titleFromQuestion(plan.question);
          plan.session.autoTitle = false;
          await meta.save();
        }
        emit({ kind: 'TITLE_GENERATION', title: plan.session.title });
      }
      const prior = await this.history(plan);
      // Cancelled before it started (the client left while the job was planned): recorded as
      // cancelled with nothing, never answered behind the user's back.
      abort.signal.throwIfAborted();
      await engine.answer({
        jobId,
        question: plan.question,
        languageType: plan.languageType,
        jobMode: plan.session.jobMode,
        sources: plan.sources,
        history: prior,
        ...(plan.dataFrom !== undefined ? { dataFrom: plan.dataFrom } : {}),
        ...(plan.datasets !== undefined ? { datasets: plan.datasets } : {}),
        ...(plan.model !== undefined ? { model: plan.model } : {}),
        // The glossaries of the datasets asked about; a meaning chosen now is kept in each of them.
        glossary: datasetsOf(plan).flatMap((d) => d.glossary ?? []),
        define: async (entry) => {
          for (const d of datasetsOf(plan)) d.glossary = withEntry(d.glossary ?? [], entry);
          await meta.save();
        },
        signal: abort.signal,
        emit: (e) => {
          // The engine contributes steps and blocks; framing events are the runner's.
          if (!open) return;
          if (e.kind === 'TASK' || e.kind === 'BLOCK') emit(e);
          else log('debug', `engine emitted a ${e.kind} event; ignored`);
        },
        publishFile: async (name, contents, contentType): Promise<FileRef> => {
          const { id, ref } = await vault.publish(name, contents, contentType);
          published.set(ref.url, id);
          return ref;
        },
      });
      open = false;
    } catch (err) {
      open = false;
      ok = false;
      const shuttingDown = abort.signal.aborted && !(abort.signal.reason instanceof JobCancelled);
      if (!abort.signal.aborted) log('error', `job failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      const message = shuttingDown ? 'the local service is shutting down' : describeErrorCode(ErrorCode.JOB_FAILED);
      emit({ kind: 'ERROR', message, code: ErrorCode.JOB_FAILED });
    } finally {
      cancel?.removeEventListener('abort', onCancel);
      this.aborts.delete(abort);
      const left = (this.activeSessions.get(sid) ?? 1) - 1;
      if (left <= 0) this.activeSessions.delete(sid);
      else this.activeSessions.set(sid, left);
    }
    // The job is on disk before END tells the client it is over: a client that saw END never
    // loses the answer, even to a kill -9 right after (the write is fsynced; see atomicFile.ts).
    // The blocks can be taken before END: END changes the answer's state, never them.
    const folded = builder.snapshot();
    const blocks = answerBlocks(folded);
    // History also keeps the steps that have no block, so a reloaded answer shows every step.
    const stored = historyBlocks(folded);
    const cancelled = !ok && abort.signal.reason instanceof JobCancelled;
    if ((!abort.signal.aborted || cancelled || ok) && meta.sessions.has(sid)) {
      try {
        const { persisted } = await history.append({
          jobId, sessionId: sid, question: plan.question, createdAt, ok, blocks: FileVault.toStored(stored, published), ...(cancelled ? { cancelled } : {}),
        });
        await persisted;
      } catch (err) {
        log('error', `could not store a finished job in history: ${String(err)}`);
      }
    }
    // A job cut short by shutdown stays noted: the next start records it as interrupted.
    if (!abort.signal.aborted || cancelled) await journal?.end(jobId);
    emit({ kind: 'END', ok });
    return { jobId, answer: builder.snapshot(), blocks, ok };
  }
}
