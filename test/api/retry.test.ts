/**
 * Backoff arithmetic: Retry-After in both of its forms, jittered exponential delays within bounds,
 * and a wait that an abort ends at once.
 */
import { strict as assert } from 'node:assert';
import { backoffDelay, parseRetryAfter, sleep } from '../../src/api/retry';

describe('api/retry', () => {
  it('parses Retry-After as seconds or as an HTTP date, and ignores junk', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 7 ', now), 7000);
    assert.equal(parseRetryAfter(['3', '9'], now), 3000);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 11:59:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter('1.5', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
  });

  it('doubles the delay per retry with half of it jittered, capped by the maximum', () => {
    assert.equal(backoffDelay(1, 100, 10_000, () => 0), 50);
    assert.equal(backoffDelay(1, 100, 10_000, () => 0.999999), 100);
    assert.equal(backoffDelay(3, 100, 10_000, () => 0), 200);
    assert.equal(backoffDelay(3, 100, 10_000, () => 1), 400);
    assert.equal(backoffDelay(30, 100, 10_000, () => 1), 10_000);
    for (let retry = 1; retry < 10; retry++) {
      const d = backoffDelay(retry, 500, 30_000);
      const exp = Math.min(30_000, 500 * 2 ** (retry - 1));
      assert.ok(d >= exp / 2 && d <= exp, `retry ${retry}: ${d}`);
    }
  });

  it('ends a wait when the signal aborts, with the abort reason', async () => {
    const ac = new AbortController();
    const waiting = sleep(60_000, ac.signal);
    const reason = new Error('stop');
    ac.abort(reason);
    await assert.rejects(waiting, (e: unknown) => e === reason);
    await assert.rejects(sleep(10, AbortSignal.abort(reason)), (e: unknown) => e === reason);
    await sleep(1, undefined);
  });
});
