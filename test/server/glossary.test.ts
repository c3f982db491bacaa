/**
 * A refusal's binding chip answers at once, and the word is understood in the next question
 * (issue 22, point 5): over HTTP on the real local service (DuckDB + local engine). The meaning is
 * kept in the dataset's glossary, survives a restart, is listed and replaced through the local-only
 * glossary route, and never appears on the v1/v2 dataset objects.
 */
import { strict as assert } from 'node:assert';
import { AnswerBuilder, answerBlocks } from '../../src/shared/answerFold';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import { newSession, seedDataset, startHarness, streamJob, USER, type Harness } from '../helpers/serverHarness';

const CARS = ['model,hp,wt', 'Alpha,110,2.6', 'Bravo,335,3.6', 'Charlie,66,2.2', 'Delta,105,3.5'].join('\n');

interface Reply { text: string; questions: string[] }

async function ask(h: Harness, sessionId: string, question: string, datasetId: string, sourceIds: string[]): Promise<Reply> {
  const cap = await streamJob(h.baseUrl, { sessionId, question, datasetId, datasourceIdList: sourceIds });
  const b = new AnswerBuilder();
  for (const e of cap.events) b.push(decodeEvent(e.event ?? 'message', e.data));
  const blocks = answerBlocks(b.snapshot());
  const text = blocks.map((x) => (x.type === 'MESSAGE' ? x.content : '')).join('\n');
  const questions = blocks.flatMap((x) => (x.type === 'QUESTIONS' ? x.content : []));
  return { text, questions };
}

describe('local service: binding chips and the dataset glossary', function () {
  this.timeout(120_000);
  let h: Harness;
  let datasetId: string;
  let sourceIds: string[];

  before(async () => {
    h = await startHarness();
    ({ datasetId, sourceIds } = await seedDataset(h, { 'cars.csv': CARS }));
  });
  after(async () => h?.stop());

  it('answers a binding chip at once, keeps the meaning, and understands the word in later questions, after a restart too', async () => {
    const s1 = await newSession(h);
    const refused = await ask(h, s1, 'average oomph', datasetId, sourceIds);
    assert.match(refused.text, /can't answer/, refused.text);
    const chip = refused.questions.find((q) => q === '"oomph" means `hp`');
    assert.ok(chip !== undefined, `a binding chip for "oomph" is offered: ${refused.questions.join(' | ')}`);

    // The chip answers the refused question at once, with the chosen meaning.
    const chosen = await ask(h, s1, chip, datasetId, sourceIds);
    assert.match(chosen.text, /Average `hp`: \*\*154\*\*/, chosen.text);

    // Kept in the dataset's glossary (local route), not on the contract's dataset object.
    const g = await h.call('GET', `/v1/team/datasets/${datasetId}/glossary?userId=${USER}`);
    assert.equal(g.json?.code, 0, g.text);
    assert.deepEqual((g.json?.data as { entries: unknown[] }).entries, [{ phrase: 'oomph', column: 'hp' }]);
    const listed = await h.call('GET', `/v1/team/datasets?userId=${USER}`);
    assert.doesNotMatch(listed.text, /glossary|oomph/);

    // A new session, a new question: the word is understood.
    const s2 = await newSession(h);
    const later = await ask(h, s2, 'which model has the most oomph', datasetId, sourceIds);
    assert.match(later.text, /Bravo/, later.text);

    // It survives a restart of the service.
    await h.restart();
    const s3 = await newSession(h);
    const again = await ask(h, s3, 'total oomph', datasetId, sourceIds);
    assert.match(again.text, /Total `hp`: \*\*616\*\*/, again.text);
  });

  it('replaces the glossary through the local route, dropping entries of the wrong shape, and forgets a meaning removed', async () => {
    const put = await h.call('POST', `/v1/team/datasets/${datasetId}/glossary?userId=${USER}`, {
      entries: [{ phrase: 'Heft', column: 'wt' }, { phrase: 42, column: 'hp' }, { column: 'hp' }, { phrase: 'x'.repeat(500), column: 'hp' }],
    });
    assert.equal(put.json?.code, 0, put.text);
    assert.deepEqual((put.json?.data as { entries: unknown[] }).entries, [{ phrase: 'heft', column: 'wt' }]);
    const s = await newSession(h);
    assert.match((await ask(h, s, 'average heft', datasetId, sourceIds)).text, /Average `wt`: \*\*2\.975\*\*/);
    assert.match((await ask(h, s, 'average oomph', datasetId, sourceIds)).text, /can't answer/, 'the meaning replaced is forgotten');
    const bad = await h.call('POST', `/v1/team/datasets/${datasetId}/glossary?userId=${USER}`, { entries: 'all of them' });
    assert.equal(bad.json?.code !== 0, true, bad.text);
  });
});
