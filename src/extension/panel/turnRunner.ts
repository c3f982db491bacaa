/**
 * Runs one streamed job for a panel turn. Events are folded by the client's JobStream; the runner
 * coalesces what changed into about one `answerPatch` per animation frame (AnswerPatcher), so a
 * 10 000-fragment answer costs the webview ~60 updates a second, not 10 000.
 */
import type { JobStream, TeamDataClient } from '../../api/index';
import { isTeamDataError } from '../../api/index';
import type { Answer, JobRequest } from '../../shared/domain';
import { AnswerPatcher } from '../../shared/answerPatch';
import type { AnswerPatch } from '../../shared/protocol';
import type { RunningJobs } from '../jobs/runningJobs';
import { describeFailure } from '../ui/failures';

/** ~one frame at 60 Hz. */
const FLUSH_MS = 16;

export interface TurnSink {
  /** Changes since the last call. */
  patch(patch: AnswerPatch): void;
  /** The answer cannot be patched (it shrank): send it whole. */
  resend(answer: Answer): void;
  title(title: string): void;
  /** The answer as of this flush (for file downloads and bookkeeping). */
  progress(answer: Answer): void;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

export interface TurnHandle {
  /** Settles with the final answer (state done, error or cancelled); never rejects. */
  done: Promise<Answer>;
  cancel(): void;
}

/** An answer for a job that never started (bad request, no connection), shown inline. */
export function failedAnswer(message: string, code?: number): Answer {
  return { jobId: '', state: 'error', groups: [], triggers: [], error: code === undefined ? { message } : { message, code } };
}

export interface TurnOptions {
  /**
   * Asked once about a cancelled answer, before it is shown: the job may have finished on the
   * service before the cancel arrived (see cancelOutcome.ts); resolves with the answer to show.
   */
  settleCancelled?: (cancelled: Answer) => Promise<Answer>;
}

export function runTurn(client: TeamDataClient, req: JobRequest, initial: Answer, sink: TurnSink, jobs: RunningJobs, opts: TurnOptions = {}): TurnHandle {
  let stream: JobStream;
  try {
    stream = client.jobs.stream(req);
  } catch (err) {
    const report = describeFailure('ask the question', err);
    sink.log('error', report.logLine);
    const answer = failedAnswer(report.message);
    return { done: Promise.resolve(answer), cancel: () => undefined };
  }
  const patcher = new AnswerPatcher(initial);
  const job = jobs.start(req.sessionId, req.question, () => stream.cancel());
  let timer: NodeJS.Timeout | undefined;
  let lastTitle: string | undefined;

  const flush = (answer: Answer): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const diff = patcher.diff(answer);
    if (diff === 'resend') {
      patcher.reset(answer);
      sink.resend(answer);
    } else if (diff) {
      sink.patch(diff);
    }
    if (answer.title !== undefined && answer.title !== lastTitle) {
      lastTitle = answer.title;
      sink.title(answer.title);
    }
    jobs.update(job, answer);
    sink.progress(answer);
  };

  const done = (async (): Promise<Answer> => {
    try {
      for await (const ev of stream) {
        void ev;
        timer ??= setTimeout(() => flush(stream.snapshot()), FLUSH_MS);
      }
    } catch {
      // The failure is read from `done` below, with the partial answer.
    }
    let answer: Answer;
    try {
      answer = await stream.done;
    } catch (err) {
      const partial = isTeamDataError(err) ? err.partial : undefined;
      answer = partial ?? stream.snapshot();
      if (isTeamDataError(err) && err.code === 'ABORTED') {
        answer = { ...answer, state: 'cancelled' };
        sink.log('info', `Job in session ${req.sessionId} cancelled`);
      } else {
        const report = describeFailure('finish the answer', err);
        sink.log('error', report.logLine);
        const code = isTeamDataError(err) && typeof err.code === 'number' ? err.code : undefined;
        answer = { ...answer, state: 'error', error: code === undefined ? { message: report.message } : { message: report.message, code } };
      }
    } finally {
      jobs.finish(job);
    }
    if (answer.state === 'cancelled' && opts.settleCancelled) {
      const cancelled = answer;
      answer = await opts.settleCancelled(cancelled).catch(() => cancelled);
      if (answer.state === 'done') sink.log('info', `Job ${answer.jobId} in session ${req.sessionId} had finished on the service before the cancel arrived: showing its answer`);
    }
    flush(answer);
    sink.log('info', `Job ${answer.jobId || '(no id)'} in session ${req.sessionId} ended: ${answer.state}${stream.traceId ? ` (trace id ${stream.traceId})` : ''}`);
    return answer;
  })();
  return { done, cancel: () => stream.cancel() };
}
