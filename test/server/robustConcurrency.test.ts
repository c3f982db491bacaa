/**
 * 20 streamed jobs at once on real data (four datasets of different sizes): every stream completes
 * with END_MARK [DONE], and every answer is about its own data: its step names the right row
 * count, its profile CSV has the right columns, counts and mean, its SOURCES name its source.
 */
import { strict as assert } from 'node:assert';
import { AnswerBuilder, answerBlocks } from '../../src/shared/answerFold';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import { parseCsv } from '../../src/shared/csv';
import { newSession, seedDataset, startHarness, streamJob, type Harness } from '../helpers/serverHarness';

const SIZES = [7, 120, 999, 2500];
const JOBS = 20;

function dataset(rows: number): { csv: string; mean: number } {
  let csv = 'item,amount,label\n';
  let sum = 0;
  for (let i = 0; i < rows; i++) {
    const amount = (i * 7919) % 1000;
    sum += amount;
    csv += `${i},${amount},L${i % 13}\n`;
  }
  return { csv, mean: sum / rows };
}

describe('local service: concurrent streamed jobs', function () {
  this.timeout(120_000);
  let h: Harness;
  const seeded: Array<{ rows: number; mean: number; datasetId: string; sourceId: string }> = [];

  before(async () => {
    h = await startHarness();
    for (const rows of SIZES) {
      const { csv, mean } = dataset(rows);
      const { datasetId, sourceIds } = await seedDataset(h, { [`items-${rows}.csv`]: csv });
      seeded.push({ rows, mean, datasetId, sourceId: sourceIds[0] as string });
    }
  });
  after(async () => {
    await h.stop();
  });

  it(`completes ${JOBS} simultaneous streams, each with its own correct answer`, async () => {
    const plans = await Promise.all(Array.from({ length: JOBS }, async (_, i) => ({ target: seeded[i % seeded.length] as (typeof seeded)[number], sessionId: await newSession(h) })));
    const captures = await Promise.all(plans.map((p, i) => streamJob(h.baseUrl, {
      sessionId: p.sessionId, question: 'Profile this data', datasetId: p.target.datasetId, datasourceIdList: [p.target.sourceId],
    })));
    const jobIds = new Set<string>();
    for (const [i, cap] of captures.entries()) {
      const { target } = plans[i] as (typeof plans)[number];
      assert.equal(cap.status, 200);
      assert.equal(cap.events[cap.events.length - 1]?.data, '[DONE]', `job ${i}`);
      const b = new AnswerBuilder();
      for (const e of cap.events) b.push(decodeEvent(e.event ?? '', e.data));
      const answer = b.snapshot();
      assert.equal(answer.state, 'done');
      jobIds.add(answer.jobId);
      const step = answer.groups.find((g) => g.stage === 'Analyze');
      assert.ok(step?.name.includes(`${target.rows.toLocaleString('en-US')} rows`), `job ${i}: ${step?.name ?? 'no step'}`);
      const blocks = answerBlocks(answer);
      const sources = blocks.find((x) => x.type === 'SOURCES');
      assert.ok(sources?.type === 'SOURCES');
      assert.deepEqual(sources.content.map((s) => s.datasourceId), [target.sourceId]);
      const table = blocks.find((x) => x.type === 'TABLE');
      assert.ok(table?.type === 'TABLE');
      const res = await fetch(table.content.url);
      assert.equal(res.status, 200);
      const rows = parseCsv(await res.text());
      const header = rows[0] as string[];
      const byName = new Map(rows.slice(1).map((r) => [r[header.indexOf('column_name')], r]));
      assert.deepEqual([...byName.keys()].sort(), ['amount', 'item', 'label']);
      const amount = byName.get('amount') as string[];
      assert.equal(Number(amount[header.indexOf('non_null_count')]), target.rows);
      assert.ok(Math.abs(Number(amount[header.indexOf('mean_value')]) - target.mean) < 1e-6 * Math.max(1, target.mean), `mean of job ${i}`);
      assert.equal(Number((byName.get('label') as string[])[header.indexOf('distinct_count')]), Math.min(13, target.rows));
    }
    assert.equal(jobIds.size, JOBS);
  });
});
