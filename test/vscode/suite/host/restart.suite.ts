/**
 * The second start, with state (what a window reload does): the datasets and sessions the
 * Analyze suite made are on disk; after Restart Local Service the trees say the service is
 * starting, never "No datasets yet", then list them again. Prints the time (a figure only).
 */
import { strict as assert } from 'node:assert';
import { api } from './helpers';
import { isStarting, roots, whenFilled } from './startup.suite';

describe('restart with existing state', function () {
  this.timeout(120_000);

  it('after a restart the trees say "Starting the local service…", then list the same data (prints the time)', async () => {
    const s = (await api()).services;
    s.datasets.refresh();
    s.sessions.refresh();
    const before = await whenFilled(s);
    const count = (nodes: readonly { kind: string }[], kind: string): number => nodes.filter((n) => n.kind === kind).length;
    assert.ok(count(before.datasets, 'dataset') > 0 && count(before.sessions, 'session') > 0, 'the Analyze suite left data');
    const started = Date.now();
    const restarting = s.supervisor.restart();
    s.datasets.refresh();
    s.sessions.refresh();
    const [datasets, sessions] = await roots(s);
    assert.ok(datasets.length === 1 && datasets[0] && isStarting(datasets[0]), JSON.stringify(datasets));
    assert.ok(sessions.length === 1 && sessions[0] && isStarting(sessions[0]), JSON.stringify(sessions));
    await restarting;
    const after = await whenFilled(s);
    const ids = (nodes: readonly { id: string }[]): string[] => nodes.map((n) => n.id).sort();
    assert.deepEqual(ids(after.datasets), ids(before.datasets));
    assert.deepEqual(ids(after.sessions), ids(before.sessions));
    console.log(`startup: after a restart with ${count(after.datasets, 'dataset')} datasets and ${count(after.sessions, 'session')} sessions, trees filled ${after.at - started} ms after the restart began`);
  });
});
