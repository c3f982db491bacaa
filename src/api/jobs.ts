/**
 * Jobs: a question in a session, answered as one response (`run`) or as a stream (`stream`). Both
 * end up as the same {@link Answer}, folded by src/shared/answerFold.ts. A job is never retried
 * after a connection failure (it might run twice); a rate-limited one is, as it never started.
 */
import { answerFromResult } from '../shared/answerFold';
import type { Answer, JobRequest } from '../shared/domain';
import { TeamDataError } from './errors';
import { JobStream } from './jobStream';
import { withCaller } from './caller';
import { traceIdFor, type ResolvedOptions, type UserCallOptions } from './options';
import { requireId } from './paging';
import type { RequestSpec, Transport } from './transport';

function checkJob(req: JobRequest): void {
  requireId(req?.sessionId, 'sessionId');
  if (typeof req.question !== 'string' || req.question.trim() === '') {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'a job needs a non-empty question' });
  }
  if (req.datasourceIdList !== undefined && !Array.isArray(req.datasourceIdList)) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'datasourceIdList must be an array of ids' });
  }
}

export class JobsApi {
  constructor(private readonly t: Transport, private readonly o: Pick<ResolvedOptions, 'jobTimeoutMs'>) {}

  private spec(req: JobRequest, stream: boolean, opts: UserCallOptions | undefined): RequestSpec {
    const c = this.t.codec;
    const body: RequestSpec = { method: 'POST', path: c.paths.jobs, json: c.encodeJobBody(req, stream), agentHeader: c.version === 'v1' };
    // v2 names the caller in the job body (`req.userId`, else the call's or the client's).
    const spec = withCaller(this.t, opts, body, false);
    if (stream) spec.accept = 'text/event-stream';
    else spec.headersTimeoutMs = this.o.jobTimeoutMs;
    return spec;
  }

  /** Runs a job and waits for the whole answer (`stream: false`). */
  async run(req: JobRequest, opts?: UserCallOptions): Promise<Answer> {
    checkJob(req);
    const c = this.t.codec;
    return this.t.call(this.spec(req, false, opts), opts, (x) => answerFromResult(c.decodeJobResult(x)));
  }

  /**
   * Starts a streamed job. Iterate the result for events as they arrive, read `snapshot()` for the
   * answer so far, await `done` for the final answer, or `cancel()` it. Argument errors throw
   * here; everything else surfaces through `done` and the iterator.
   */
  stream(req: JobRequest, opts?: UserCallOptions): JobStream {
    checkJob(req);
    const traceId = traceIdFor(opts);
    const spec = this.spec(req, true, opts);
    const c = this.t.codec;
    return new JobStream(
      {
        open: (signal) => this.t.open(spec, { signal, traceId }),
        decodeResult: (x) => c.decodeJobResult(x),
        decodeEvent: (event, data) => c.decodeEvent(event, data),
        log: (level, message) => this.t.log(level, message),
        scrub: this.t.scrub,
        operation: `${spec.method} ${spec.path}`,
      },
      opts?.signal,
    );
  }
}
