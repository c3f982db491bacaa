/**
 * Turns any failure into what the user reads: what happened and what to do, never a stack trace
 * or "undefined". The details a support person needs (code, operation, the service's trace id)
 * go to the log only.
 */
import { isTeamDataError, type TeamDataError } from '../../api/index';
import { ErrorCode } from '../../shared/errorCodes';
import { ConnectionError } from '../connection/connection';
import { LocalServiceError } from '../localService/supervisor';

/** The fix the notification offers as a button. */
export type FailureAction = 'Sign In' | 'Open Settings' | 'Show Logs' | 'Retry' | 'Delete Old Sessions';

export interface FailureReport {
  /** One or two sentences for the notification. */
  message: string;
  /** Buttons, most useful first. */
  actions: FailureAction[];
  /** The line for the log (may hold codes and trace ids, never secrets). */
  logLine: string;
  /** True when the user cancelled: nothing to show. */
  cancelled: boolean;
  /** The service's error code, when it reported one. */
  code?: TeamDataError['code'];
}

const AUTH_CODES = new Set<number>([ErrorCode.EXPIRED_CREDENTIALS, ErrorCode.INSUFFICIENT_AUTH, ErrorCode.BAD_CREDENTIALS]);

function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  const upper = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(upper) ? upper : `${upper}.`;
}

function plainMessage(err: unknown): string {
  if (err instanceof Error && typeof err.message === 'string' && err.message.trim() !== '') return err.message;
  if (typeof err === 'string' && err.trim() !== '') return err;
  return 'an unexpected error occurred';
}

/** `what` is a verb phrase: "analyze sales.csv", "delete the dataset". */
export function describeFailure(what: string, err: unknown): FailureReport {
  const head = `Could not ${what}`;
  if (isTeamDataError(err)) {
    if (err.code === 'ABORTED') return { message: `${head}: cancelled.`, actions: [], logLine: `${head}: cancelled`, cancelled: true, code: err.code };
    const details = [
      `code ${String(err.code)}`,
      err.httpStatus !== undefined ? `HTTP ${err.httpStatus}` : undefined,
      err.operation,
      err.traceId ? `trace id ${err.traceId}` : undefined,
      err.serviceMessage ? `service said: ${err.serviceMessage}` : undefined,
    ].filter((x): x is string => x !== undefined);
    const logLine = `${head}: ${err.message} (${details.join('; ')})`;
    const traceHint = err.traceId ? ' The trace id for support is in the log.' : '';
    const base = `${head}: ${err.message.replace(/[.\s]+$/, '')}.`;
    if (typeof err.code === 'number' && AUTH_CODES.has(err.code)) {
      return { message: `${base} Sign in again with a valid API key.${traceHint}`, actions: ['Sign In', 'Show Logs'], logLine, cancelled: false, code: err.code };
    }
    if (err.code === ErrorCode.SESSION_LIMIT) {
      return { message: `${base}${traceHint}`, actions: ['Delete Old Sessions', 'Show Logs'], logLine, cancelled: false, code: err.code };
    }
    if (err.code === 'NETWORK' || err.code === 'TIMEOUT') {
      return { message: `${base} Check teamData.baseUrl and your connection, then retry.${traceHint}`, actions: ['Retry', 'Open Settings', 'Show Logs'], logLine, cancelled: false, code: err.code };
    }
    if (err.code === ErrorCode.RATE_LIMITED) {
      return { message: `${base}${traceHint}`, actions: ['Retry', 'Show Logs'], logLine, cancelled: false, code: err.code };
    }
    return { message: `${base}${traceHint}`, actions: ['Show Logs'], logLine, cancelled: false, code: err.code };
  }
  if (err instanceof ConnectionError) {
    const action: FailureAction = err.problem === 'badBaseUrl' ? 'Open Settings' : 'Sign In';
    return { message: `${head}: ${sentence(err.message)}`, actions: [action, 'Show Logs'], logLine: `${head}: ${err.message}`, cancelled: false };
  }
  if (err instanceof LocalServiceError) {
    const advice = err.kind === 'native' ? ' Use a hosted service instead (Sign In).' : ' See the log for details.';
    return {
      message: `${head}: ${sentence(err.message)}${advice}`,
      actions: err.kind === 'native' ? ['Sign In', 'Show Logs'] : ['Retry', 'Show Logs'],
      logLine: `${head}: local service (${err.kind}): ${err.message}`,
      cancelled: false,
    };
  }
  if (err instanceof Error && err.name === 'Canceled') {
    return { message: `${head}: cancelled.`, actions: [], logLine: `${head}: cancelled`, cancelled: true };
  }
  const text = plainMessage(err);
  return { message: `${head}: ${sentence(text)} See the log for details.`, actions: ['Show Logs'], logLine: `${head}: ${text}`, cancelled: false };
}
