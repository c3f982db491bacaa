/**
 * A cancel that arrives after the job finished on the service (issue 24 point 6). On the local
 * service a quick answer is done in 30–100 ms; a Cancel pressed then closed a stream whose job was
 * already done and recorded, and the panel said "Cancelled" while history, the Sessions tree and a
 * reload showed the answer. The panel now asks the service's history (cancelOutcome.ts): here
 * against the real local service with the real client.
 */
import { strict as assert } from 'node:assert';
import { TeamDataClient } from '../../../../src/api/index';
import { answerOfRecord, cancelOutcome, settleCancel, type HistoryReader } from '../../../../src/extension/panel/cancelOutcome';
import type { Answer, HistoryRecord, Page } from '../../../../src/shared/domain';
import { newSession, seedDataset, startHarness, TEST_KEY, USER, type Harness } from '../../../helpers/serverHarness';

const stepsOf = (a: Answer): string[] => a.groups.map((g) => g.name);

describe('what became of a job the panel saw cancelled (cancelOutcome)', function () {
  this.timeout(120_000);
  let h: Harness;
  let client: TeamDataClient;
  let sessionId: string;
  let scope: { datasetId: string; datasourceIdList: string[] };

  before(async () => {
    h = await startHarness();
    client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
    const seeded = await seedDataset(h, { 'sales.csv': 'region,revenue\nEurope,100.5\nAsia,50\nEurope,25\n' });
    scope = { datasetId: seeded.datasetId, datasourceIdList: seeded.sourceIds };
    sessionId = await newSession(h);
  });
  after(async () => {
    await h?.stop();
  });

  /** A job that finished on the service, and the answer the panel had when its cancel closed the stream. */
  async function finishedThenCancelled(question: string): Promise<{ full: Answer; cancelled: Answer }> {
    const full = await client.jobs.stream({ sessionId, question, ...scope }).done;
    assert.equal(full.state, 'done');
    // What the stream had folded when the cancel arrived: the first step, nothing of the answer.
    return { full, cancelled: { ...full, state: 'cancelled', groups: full.groups.slice(0, 1) } };
  }

  it('a job the service finished is done, with the answer a restore shows, every step included', async () => {
    const { full, cancelled } = await finishedThenCancelled('total revenue by region');
    const outcome = await cancelOutcome(client.sessions, { sessionId, answer: cancelled, question: 'total revenue by region', knownJobIds: new Set() });
    assert.equal(outcome.kind, 'done');
    assert.ok(outcome.kind === 'done');
    assert.equal(outcome.answer.state, 'done');
    assert.equal(outcome.answer.jobId, full.jobId);
    assert.deepEqual(stepsOf(outcome.answer), stepsOf(full));
    assert.ok(stepsOf(outcome.answer).some((n) => n.startsWith('Read the question as:')), JSON.stringify(stepsOf(outcome.answer)));
    const restored = (await client.sessions.history(sessionId)).records.find((r) => r.jobId === full.jobId);
    assert.ok(restored);
    // The same answer as a reload shows (file links are signed afresh on each read of history).
    const unsigned = (a: Answer): string => JSON.stringify(a).replace(/"(url|expiredAt)":"[^"]*"/g, '"$1":""');
    assert.equal(unsigned(outcome.answer), unsigned(answerOfRecord(restored)));
    assert.ok(outcome.answer.groups.flatMap((g) => g.blocks).some((b) => b.type === 'TABLE'), 'the answer\'s table is there');
  });

  it('a job whose id never reached the panel is the newest record of its question the panel does not show yet', async () => {
    const known = new Set((await client.sessions.history(sessionId)).records.map((r) => r.jobId));
    const { full, cancelled } = await finishedThenCancelled('total revenue by region');
    const noId = { ...cancelled, jobId: '', groups: [] };
    const outcome = await cancelOutcome(client.sessions, { sessionId, answer: noId, question: 'total revenue by region', knownJobIds: known });
    assert.ok(outcome.kind === 'done', outcome.kind);
    assert.equal(outcome.answer.jobId, full.jobId);
    // Every record of the question is already shown: nothing to say about this cancel.
    const all = new Set([...known, full.jobId]);
    assert.deepEqual(await cancelOutcome(client.sessions, { sessionId, answer: noId, question: 'total revenue by region', knownJobIds: all }), { kind: 'unknown' });
  });

  it('a job the service recorded cancelled stays cancelled; one it has not recorded yet is looked for again', async () => {
    // The service records a cancelled job a moment after the stream closed (jobCancelEarly tests that it does).
    const rec = (state?: 'cancelled'): HistoryRecord => ({ jobId: 'job-1', question: { blocks: [{ type: 'MESSAGE', content: 'total revenue' }] }, answer: { blocks: [], ...(state ? { state } : {}) } });
    let calls = 0;
    const slow: HistoryReader = {
      history: async (): Promise<Page<HistoryRecord>> => {
        calls++;
        const records = calls < 3 ? [] : [rec('cancelled')];
        return { total: records.length, pageNumber: 1, pageSize: 20, records };
      },
    };
    const cancelled: Answer = { jobId: '', state: 'cancelled', groups: [], triggers: [] };
    const job = { sessionId: 's', answer: cancelled, question: 'total revenue', knownJobIds: new Set<string>() };
    assert.deepEqual(await settleCancel(slow, job, [5, 5, 5, 5]), { kind: 'cancelled', jobId: 'job-1' });
    assert.equal(calls, 3, 'stops looking once history knows the job');
    calls = 0;
    assert.deepEqual(await settleCancel(slow, job, [5]), { kind: 'unknown' }, 'gives up after its delays');
    const failing: HistoryReader = { history: async () => Promise.reject(new Error('offline')) };
    assert.deepEqual(await cancelOutcome(failing, job), { kind: 'unknown' });
  });
});
