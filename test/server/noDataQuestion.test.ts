/**
 * A question that selects no data ("No dataset – a general question" in VS Code) on the local
 * service, whose engine answers only from data (issue 24 item 14). It used to say "Add a file to
 * a dataset" while datasets with ready files existed: a dead end. Now it continues with the data
 * of the session's earlier questions, and a session without any names the datasets to choose.
 */
import { strict as assert } from 'node:assert';
import { AnswerBuilder, answerBlocks } from '../../src/shared/answerFold';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import type { Answer } from '../../src/shared/domain';
import { newSession, seedDataset, startHarness, streamJob, type Harness } from '../helpers/serverHarness';

const SALES = `region,amount\n${Array.from({ length: 12 }, (_, i) => `${['north', 'south', 'east'][i % 3] as string},${(i + 1) * 10}`).join('\n')}\n`;

async function ask(h: Harness, body: Record<string, unknown>): Promise<Answer> {
  const cap = await streamJob(h.baseUrl, body);
  assert.equal(cap.status, 200);
  const b = new AnswerBuilder();
  for (const e of cap.events) b.push(decodeEvent(e.event ?? 'message', e.data));
  return b.snapshot();
}

const textOf = (a: Answer): string => answerBlocks(a).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
const stepsOf = (a: Answer): string[] => a.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);

describe('local service: a question with no data selected', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.stop();
  });

  it('with no data at all, says how to add some', async () => {
    const sessionId = await newSession(h);
    const a = await ask(h, { sessionId, question: 'total amount by region' });
    assert.equal(a.state, 'done');
    assert.match(textOf(a), /there is no data yet/);
    assert.match(textOf(a), /Add a file to a dataset/);
  });

  it('in a session without data, names the datasets that have ready files instead of "add a file"', async () => {
    const { sourceIds } = await seedDataset(h, { 'sales.csv': SALES });
    assert.equal(sourceIds.length, 1);
    const sessionId = await newSession(h);
    const a = await ask(h, { sessionId, question: 'total amount by region' });
    const text = textOf(a);
    assert.doesNotMatch(text, /Add a file/, text);
    assert.match(text, /Select this dataset for the question and ask again/, text);
    assert.match(text, /\(1 file\)/, text);
  });

  it('in a session that asked about data before, answers from that data and says so', async () => {
    const { datasetId, sourceIds } = await seedDataset(h, { 'orders.csv': SALES });
    const sessionId = await newSession(h);
    const first = await ask(h, { sessionId, question: 'total amount by region', datasetId, datasourceIdList: sourceIds });
    assert.equal(first.state, 'done');
    const again = await ask(h, { sessionId, question: 'average amount by region' });
    assert.equal(again.state, 'done');
    assert.ok(stepsOf(again).some((n) => /^Use the data of this session's earlier questions: orders\.csv/.test(n)), JSON.stringify(stepsOf(again)));
    const sources = answerBlocks(again).flatMap((b) => (b.type === 'SOURCES' ? b.content.map((x) => x.datasourceId) : []));
    assert.deepEqual(sources, sourceIds);
    assert.match(textOf(again), /north/i, 'an answer with numbers, not a refusal');
  });
});
