/**
 * When a shared service may stop (daemon/leases.ts), on a fake clock: silent clients' leases
 * expire, the service stops only after `idleMs` without leases and without work, a running job
 * holds it, and a restart asked for waits for the work to end.
 */
import { strict as assert } from 'node:assert';
import { Leases } from '../../src/server/daemon/leases';

function make(o: { busy?: () => boolean } = {}): { leases: Leases; clock: { t: number }; ended: string[] } {
  const clock = { t: 0 };
  const ended: string[] = [];
  const leases = new Leases({ ttlMs: 1000, idleMs: 5000, busy: o.busy ?? (() => false), onIdle: (why) => ended.push(why), now: () => clock.t });
  return { leases, clock, ended };
}

describe('shared service leases and idle stop', () => {
  it('a lease not renewed within its time to live goes; renewed, it stays', () => {
    const { leases, clock } = make();
    const kept = leases.add('vscode', ['/w/a']);
    const silent = leases.add('cli', ['/w/b']);
    clock.t = 800;
    assert.ok(leases.renew(kept.id));
    clock.t = 1500;
    assert.deepEqual(leases.list().map((l) => l.id), [kept.id]);
    assert.equal(leases.renew(silent.id), undefined, 'an expired lease cannot be renewed (the client takes a new one)');
    assert.deepEqual(leases.roots(), ['/w/a']);
  });

  it('stops only after idleMs with no lease and no work', () => {
    let busy = false;
    const { leases, clock, ended } = make({ busy: () => busy });
    const l = leases.add('vscode', []);
    clock.t = 10_000;
    leases.renew(l.id);
    leases.tick();
    assert.deepEqual(ended, [], 'a live lease keeps it');
    leases.drop(l.id);
    clock.t = 12_000;
    leases.tick();
    busy = true;
    clock.t = 20_000;
    leases.tick();
    assert.deepEqual(ended, [], 'never while a job runs');
    busy = false;
    clock.t = 24_000;
    leases.tick();
    assert.deepEqual(ended, [], 'the idle wait starts again when the work ends');
    clock.t = 25_001;
    leases.tick();
    assert.equal(ended.length, 1);
    leases.tick();
    assert.equal(ended.length, 1, 'once');
  });

  it('a restart asked for happens as soon as no work runs, leases or not', () => {
    let busy = true;
    const { leases, ended } = make({ busy: () => busy });
    leases.add('vscode', []);
    leases.restartWhenIdle('new folder');
    assert.deepEqual(ended, []);
    busy = false;
    leases.tick();
    assert.deepEqual(ended, ['new folder']);
  });

  it('after a sleep that lapsed every lease, the idle wait starts at the wake, not before the sleep', () => {
    const { leases, clock, ended } = make();
    leases.add('vscode', []);
    clock.t = 60_000; // woke up: the lease lapsed long ago, and the last work was a minute back
    leases.tick();
    assert.deepEqual(ended, [], 'waking clients get the idle wait to renew or attach again');
    clock.t = 65_001;
    leases.tick();
    assert.equal(ended.length, 1);
    assert.equal(leases.restarting, true, 'no new lease once it is stopping');
  });
});
