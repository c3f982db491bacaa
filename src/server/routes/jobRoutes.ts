/** POST /v{1,2}/team/jobs (and the prose alias /v1/job): validate, then stream or answer at once. */
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError } from '../http/envelope';
import type { Handler, Router } from '../http/router';
import { planJob } from '../jobs/jobPlan';
import { SseWriter } from '../jobs/sseWriter';
import type { ServiceDeps } from '../serviceDeps';
import { decodeBody, leaseOf, type Spelling } from './routeKit';

export function registerJobRoutes(router: Router, deps: ServiceDeps, { wire, req }: Spelling): void {
  const createJob: Handler = async (ctx) => {
    // A client that goes away before the answer is complete cancelled the job: stop it. Watched
    // from the start: a cancel right after sending closes the connection while the body is read
    // or the job planned (an in-place file re-read can take a while); a listener added after
    // those awaits missed that close and the job ran to the end (and showed up done in history).
    const cancel = new AbortController();
    let ended = false;
    const onClose = (): void => {
      if (!ended && !ctx.res.writableFinished) cancel.abort();
    };
    ctx.res.once('close', onClose);
    if (ctx.res.destroyed || ctx.req.socket.destroyed) onClose();
    const body = await decodeBody(ctx, (raw) => req.decodeJobBody(raw));
    const plan = await planJob(deps, body);
    // The model this client chose (a VS Code window's setting) answers its questions only.
    const model = deps.modelFor?.(leaseOf(ctx));
    if (model !== undefined) plan.model = model;
    if (!body.stream) {
      const outcome = await deps.jobs.run(plan, () => undefined, cancel.signal);
      if (!outcome.ok) throw new ApiError(ErrorCode.JOB_FAILED, outcome.answer.error?.message);
      return { data: wire.encodeJobResult({ jobId: outcome.jobId, blocks: outcome.blocks }) };
    }
    const sse = new SseWriter(ctx.res, deps.keepAliveMs, wire.encodeEvent);
    sse.start(ctx.traceId);
    // The stream ends with END, sent once the job is in history on disk.
    await deps.jobs.run(plan, (e) => {
      sse.send(e);
      if (e.kind === 'END') {
        ended = true;
        sse.end();
      }
    }, cancel.signal);
    sse.end();
    return 'handled';
  };
  router.add('POST', wire.paths.jobs, createJob);
  for (const alias of req.aliases.jobs) router.add('POST', alias, createJob);
}
