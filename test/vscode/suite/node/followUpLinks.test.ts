/**
 * "Follow-up to: …" kept across reloads (issue 24 point 5): the turn a chip's question refines is
 * stored extension-side, keyed by the follow-up's job id, and put back on restored turns.
 */
import { strict as assert } from 'node:assert';
import { FOLLOW_UPS_KEY, FollowUpLinks, MAX_FOLLOW_UPS } from '../../../../src/extension/panel/followUpLinks';
import type { Turn } from '../../../../src/shared/protocol';
import { memento } from './memento';


const turn = (jobId: string, question = `q ${jobId}`): Turn => ({ id: `h:${jobId}`, question, answer: { jobId, state: 'done', groups: [], triggers: [] }, fromHistory: true });

describe('FollowUpLinks (which turn a follow-up refines, across reloads)', () => {
  it('puts the link back on the restored follow-up, naming the earlier turn by its restored id', async () => {
    const state = memento();
    const links = new FollowUpLinks(state, () => 'local|me');
    await links.remember('job-2', { sourceJobId: 'job-1', question: 'total revenue by month' });
    // A new window (a reload) reads the same workspace state.
    const restored = new FollowUpLinks(state, () => 'local|me').restore([turn('job-1'), turn('job-2'), turn('job-3')]);
    assert.deepEqual(restored.map((t) => t.refines), [undefined, { turnId: 'h:job-1', question: 'total revenue by month' }, undefined]);
    // Another service's job ids never match.
    assert.equal(new FollowUpLinks(state, () => 'hosted|me').restore([turn('job-2')])[0]?.refines, undefined);
  });

  it('keeps nothing for a job without an id, ignores damaged entries and stays bounded', async () => {
    const state = memento();
    const links = new FollowUpLinks(state, () => 'x');
    await links.remember('', { sourceJobId: 'job-1', question: 'q' });
    await links.remember('job-2', { sourceJobId: '', question: 'q' });
    assert.equal(state.data.get(FOLLOW_UPS_KEY), undefined);
    await state.update(FOLLOW_UPS_KEY, { 'x|bad': { sourceJobId: 7 } });
    assert.equal(links.get('bad'), undefined);
    for (let i = 0; i < MAX_FOLLOW_UPS + 5; i++) await links.remember(`job-${i}`, { sourceJobId: 'src', question: 'q' });
    const kept = state.data.get(FOLLOW_UPS_KEY) as Record<string, unknown>;
    assert.equal(Object.keys(kept).length, MAX_FOLLOW_UPS);
    assert.equal(links.get('job-0'), undefined, 'the oldest went first');
    assert.ok(links.get(`job-${MAX_FOLLOW_UPS + 4}`));
  });
});
