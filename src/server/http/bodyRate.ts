/**
 * A minimum rate for upload bodies. The idle rule (requestBody.ts) ends a body that stops; a client
 * that sends one byte every few seconds never stops, and would hold a connection, a temporary file
 * and a request slot for as long as it likes. So every window of `windowMs` must bring at least
 * `bytes`, like a web server's minimum-rate rule: a slow but steady upload (a phone line, a busy
 * VPN) passes easily, a trickle fails within one window.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError } from './envelope';

export interface MinBodyRate {
  /** Length of each window, in milliseconds. */
  windowMs: number;
  /** Bytes that must arrive within every window. */
  bytes: number;
}

/** About 550 bytes a second, judged over half a minute: far below any real link. */
export const DEFAULT_MIN_BODY_RATE: MinBodyRate = { windowMs: 30_000, bytes: 16 * 1024 };

/** The 408 answer for an upload that arrived too slowly; the connection is closed after it (dispatcher). */
export function bodyTooSlow(rate: MinBodyRate): ApiError {
  const seconds = Math.round(rate.windowMs / 100) / 10;
  return new ApiError(ErrorCode.BAD_REQUEST, `body: the upload arrived too slowly (less than ${rate.bytes} bytes in ${seconds} s); check the connection and try again`, 408);
}

export interface RateWatch {
  /** Counts bytes that arrived. */
  seen(bytes: number): void;
  /** Ends the watch (the body is complete or failed otherwise). */
  stop(): void;
}

/**
 * Calls `onSlow` once when a window passes with fewer than `rate.bytes` counted. A window in which
 * the service itself paused the request (its disk could not keep up: backpressure) is not held
 * against the client.
 */
export function watchBodyRate(req: IncomingMessage, rate: MinBodyRate, onSlow: () => void): RateWatch {
  let received = 0;
  let held = req.isPaused();
  const onPause = (): void => {
    held = true;
  };
  req.on('pause', onPause);
  const timer = setInterval(() => {
    const slow = !held && !req.isPaused() && received < rate.bytes;
    received = 0;
    held = req.isPaused();
    if (!slow) return;
    stop();
    onSlow();
  }, rate.windowMs);
  const stop = (): void => {
    clearInterval(timer);
    req.off('pause', onPause);
  };
  return {
    seen(n) {
      received += n;
    },
    stop,
  };
}
