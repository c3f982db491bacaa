import { isTeamDataError } from '../api/index';
import { MAX_SESSIONS } from '../shared/domain';
import { ErrorCode } from '../shared/errorCodes';

/**
 * What to do about the session limit. The service's own words ("delete sessions first") do not
 * say how, and nothing fixes itself by retrying, so the way out is named exactly. `sameAs` tells
 * which connection options the command must repeat to reach the same service.
 */
export function sessionLimitAdvice(sameAs = 'the same --data-dir, or --base-url, --api-key and --user-id, as the command that failed'): string {
  return `The service keeps at most ${MAX_SESSIONS} sessions. To make room, delete old ones: "team-data sessions delete --oldest 20" `
    + `deletes the 20 oldest ("team-data sessions list" shows them, newest first); run it with ${sameAs}. `
    + 'Or delete sessions in the Sessions view of VS Code\'s Team Data Analysis panel when it is connected to this service.';
}

/**
 * One line that says what went wrong, with the service's trace id when there is one. `sameAs`: see
 * sessionLimitAdvice.
 */
export function describeFailure(err: unknown, sameAs?: string): string {
  if (err instanceof Error) {
    const traceId = (err as { traceId?: unknown }).traceId;
    const base = err.message || err.name;
    const line = typeof traceId === 'string' && traceId !== '' ? `${base} (trace id ${traceId})` : base;
    return isTeamDataError(err) && err.code === ErrorCode.SESSION_LIMIT ? `${line}. ${sessionLimitAdvice(sameAs)}` : line;
  }
  return String(err);
}
