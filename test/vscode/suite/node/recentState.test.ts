/** The bounded records kept in a Memento (recentState.ts): newest last, the oldest out first. */
import { strict as assert } from 'node:assert';
import { putRecent } from '../../../../src/extension/recentState';
import { memento } from './memento';

describe('putRecent (bounded records in the extension\'s state)', () => {
  it('adds an entry as the newest, moves a key written again to the end, and drops the oldest past the bound', async () => {
    const state = memento();
    const read = (): Record<string, number> => state.get<Record<string, number>>('k') ?? {};
    for (const [key, v] of [['a', 1], ['b', 2], ['c', 3]] as const) await putRecent<number>(state, 'k', read(), key, v, 3);
    assert.deepEqual(Object.entries(read()), [['a', 1], ['b', 2], ['c', 3]]);
    await putRecent(state, 'k', read(), 'a', 10, 3);
    assert.deepEqual(Object.entries(read()), [['b', 2], ['c', 3], ['a', 10]], 'written again: newest');
    await putRecent(state, 'k', read(), 'd', 4, 3);
    assert.deepEqual(Object.entries(read()), [['c', 3], ['a', 10], ['d', 4]], 'the oldest went');
  });

  it('never changes the record it was given', async () => {
    const state = memento();
    const current = Object.freeze({ a: 1 });
    await putRecent(state, 'k', current, 'b', 2, 1);
    assert.deepEqual(current, { a: 1 });
    assert.deepEqual(state.get('k'), { b: 2 });
  });
});
