/**
 * What became of a job the panel saw cancelled. A cancel is the client closing its stream; on the
 * local service a quick answer is done in 30–100 ms, so a Cancel pressed then arrives after the
 * service finished and recorded the job done: the panel said "Cancelled" while history, the
 * Sessions tree and a reload showed the answer. The service's history decides: a job it recorded
 * done is shown done, with the answer a restore shows; one it recorded cancelled stays cancelled.
 * No vscode here: the extension-host panel and plain-Node tests use the same code.
 */
import type { ListQuery, UserCallOptions } from '../../api/index';
import { answerFromResult } from '../../shared/answerFold';
import type { Answer, HistoryRecord, Page } from '../../shared/domain';
import { questionOf } from '../trees/nodes';

/** The part of the client this needs (`client.sessions`). */
export interface HistoryReader {
  history(id: string, q?: ListQuery, opts?: UserCallOptions): Promise<Page<HistoryRecord>>;
}

/** A past job as the panel shows it after a reload (its steps, its blocks, its state). */
export function answerOfRecord(r: HistoryRecord): Answer {
  const answer = answerFromResult({ jobId: r.jobId, blocks: r.answer.blocks });
  return r.answer.state === undefined ? answer : { ...answer, state: r.answer.state };
}

/**
 * `done`: the service finished the job (its answer as a restore shows it); `cancelled`: the service
 * recorded it cancelled (with its job id, which the panel may never have received); `unknown`: not
 * in history (yet), or history could not be read.
 */
export type CancelOutcome = { kind: 'done'; answer: Answer } | { kind: 'cancelled'; jobId: string } | { kind: 'unknown' };

export interface CancelledJob {
  sessionId: string;
  /** The panel's cancelled answer: its `jobId` is '' when the cancel came before the job's id. */
  answer: Answer;
  question: string;
  /** Jobs the panel already shows: a job without an id is the newest record of its question not among them. */
  knownJobIds: ReadonlySet<string>;
}

/** Records looked at: the job was just asked, so it is among the newest. */
const RECENT = 20;

/** One look at the session's history. */
export async function cancelOutcome(sessions: HistoryReader, job: CancelledJob, opts: UserCallOptions = {}): Promise<CancelOutcome> {
  let records: HistoryRecord[];
  try {
    records = (await sessions.history(job.sessionId, { pageNumber: 1, pageSize: RECENT }, opts)).records;
  } catch {
    return { kind: 'unknown' };
  }
  const jobId = job.answer.jobId;
  // Newest first: the first record of the question that the panel does not know is this job.
  const record = jobId !== ''
    ? records.find((r) => r.jobId === jobId)
    : records.find((r) => !job.knownJobIds.has(r.jobId) && questionOf(r) === job.question.trim());
  if (!record) return { kind: 'unknown' };
  if (record.answer.state === undefined) return { kind: 'done', answer: answerOfRecord(record) };
  // Recorded cancelled (or failed after the cancel): it did not finish, as the panel says.
  return { kind: 'cancelled', jobId: record.jobId };
}

/**
 * Looks now and after each of `delaysMs` until history knows the job (the service records a
 * really cancelled job a moment after it saw the stream close). `signal` stops the waiting.
 */
export async function settleCancel(sessions: HistoryReader, job: CancelledJob, delaysMs: readonly number[], signal?: AbortSignal): Promise<CancelOutcome> {
  for (let i = 0; ; i++) {
    const outcome = await cancelOutcome(sessions, job, signal ? { signal } : {});
    const delay = delaysMs[i];
    if (outcome.kind !== 'unknown' || delay === undefined || signal?.aborted) return outcome;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
