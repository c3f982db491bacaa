/**
 * kill -9 during streamed jobs: whatever the moment, an answer whose END_MARK the client saw is in
 * history after a restart (issue 12: history used to reach disk after the marker, and a kill right
 * then lost the job every time). Half the kills land the instant END_MARK arrives, the rest at
 * random points. Prints jobs / answers lost after END_MARK (target 0).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, killHard, startChild, uploadSource, type Child, type Rec } from '../helpers/childService';
import { eventually, TEST_KEY, USER } from '../helpers/serverHarness';
import { seededRandom } from '../helpers/seededRandom';

const JOBS = 50;

/** Streams a job, calling `onText` with everything received so far; resolves when the stream stops. */
async function streamUntil(baseUrl: string, body: Rec, stop: (raw: string) => boolean): Promise<string> {
  let raw = '';
  try {
    const res = await fetch(`${baseUrl}/v1/team/jobs`, {
      method: 'POST', headers: { 'x-pd-api-key': TEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream: true }),
    });
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    while (reader) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
      if (stop(raw)) break;
    }
  } catch {
    // the service was killed mid-stream
  }
  return raw;
}

describe('local service: kill -9 during streamed jobs (issue 12)', function () {
  this.timeout(600_000);
  let dir: string;
  let child: Child | undefined;
  after(async () => {
    if (child) await killHard(child);
    await rm(dir, { recursive: true, force: true });
  });

  it(`loses no answer whose END_MARK the client saw, over ${JOBS} kills`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-killstream-'));
    const dataDir = join(dir, 'data');
    const csv = join(dir, 'sales.csv');
    await writeFile(csv, `region,amount\n${Array.from({ length: 400 }, (_, i) => `${['north', 'south', 'east'][i % 3] as string},${(i * 37) % 500}`).join('\n')}\n`);
    child = await startChild(dataDir);
    const { datasetId, sourceId } = await uploadSource(child.baseUrl, csv);
    await eventually(async () => (((await call((child as Child).baseUrl, 'GET', `/v1/team/datasets/${datasetId}/datasources/${sourceId}`))['data'] as Rec)['status'] === 'synched' ? true : undefined), 'the source');
    const sessionId = ((await call(child.baseUrl, 'POST', '/v1/team/sessions', { userId: USER }))['data'] as Rec)['id'] as string;
    const random = seededRandom(20261124);
    const seen: string[] = [];
    let atEnd = 0;
    for (let n = 0; n < JOBS; n++) {
      const c = child;
      const instant = n % 2 === 0;
      const delay = Math.floor(random() * 400);
      let killing: Promise<void> | undefined;
      const timer = instant ? undefined : setTimeout(() => { killing = killHard(c); }, delay);
      const raw = await streamUntil(c.baseUrl, { sessionId, datasetId, question: `total amount by region (${n})` }, (text) => {
        if (instant && text.includes('END_MARK')) {
          killing = killHard(c);
          return true;
        }
        return false;
      });
      clearTimeout(timer);
      await (killing ?? killHard(c));
      const jobId = /event:\s*JOB_ID\s*\ndata:\s*(\S+)/.exec(raw)?.[1];
      if (raw.includes('END_MARK') && jobId !== undefined) {
        seen.push(jobId);
        if (instant) atEnd++;
      }
      child = await startChild(dataDir);
    }
    const history = (await call(child.baseUrl, 'GET', `/v1/team/sessions/${sessionId}/history?pageSize=100&userId=${USER}`))['data'] as Rec;
    const stored = new Set(((history['records'] as Rec[]) ?? []).map((r) => r['jobId'] as string));
    const lost = seen.filter((id) => !stored.has(id));
    console.log(`      kill -9 during ${JOBS} streamed jobs: ${seen.length} reached END_MARK (${atEnd} killed at that instant) / ${lost.length} answers lost (target 0)`);
    assert.ok(atEnd >= JOBS / 4, 'most instant kills happened right after END_MARK');
    assert.deepEqual(lost, []);
  });
});
