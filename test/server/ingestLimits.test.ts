/**
 * Every ingest has a time budget, and a file whose processing keeps stopping the service is given
 * up on at the next start with a clear reason, instead of crashing the service on every restart.
 */
import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, seedDataset, startHarness, TEST_KEY, USER } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;
const CSV = `id,value\n${Array.from({ length: 2000 }, (_, i) => `${i},${i * 3}`).join('\n')}\n`;

describe('local service: ingest limits', function () {
  this.timeout(60_000);

  it('stops a source that takes longer than its time budget and says so', async () => {
    const h = await startHarness({ ingestBudgetMs: 1 });
    try {
      const datasetId = ((await h.call('POST', '/v1/team/datasets', { name: 'slow', description: '' })).json?.data as Rec)['id'] as string;
      const form = new FormData();
      form.append('file', new Blob([CSV]), 'slow.csv');
      const up = (await (await fetch(`${h.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form })).json()) as { data: { fileKey: string } };
      const id = ((await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: 'slow.csv', type: 'FILE', fileKey: up.data.fileKey })).json?.data as Rec)['id'] as string;
      const s = await eventually(async () => {
        const r = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as Rec;
        return r['status'] === 'invalid' && r['error'] !== undefined ? r : undefined;
      }, 'the budget to stop the ingest');
      assert.match(String(s['error']), /took longer than 0 s and was stopped/);
    } finally {
      await h.stop();
    }
  });

  for (const crashes of [1, 2]) {
    it(`after ${crashes} crash${crashes > 1 ? 'es' : ''} during an ingest, ${crashes === 1 ? 'retries it once' : 'gives up with a clear reason'}`, async () => {
      const h = await startHarness();
      const { datasetId, sourceIds } = await seedDataset(h, { 'a.csv': CSV });
      const id = sourceIds[0] as string;
      await h.stop(true);
      // What a crash mid-ingest leaves on disk: the source still synching, its attempts counted.
      const statePath = join(h.dataDir, 'meta', 'state.json');
      const state = JSON.parse(await readFile(statePath, 'utf8')) as { sources: Rec[] };
      const rec = state.sources.find((r) => r['id'] === id) as Rec;
      Object.assign(rec, { status: 'synching', attempts: crashes });
      await writeFile(statePath, JSON.stringify(state));
      const again = await startHarness({}, h.dataDir);
      try {
        const s = await eventually(async () => {
          const r = (await again.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as Rec;
          return r['status'] === 'synched' || (r['status'] === 'invalid' && r['error'] !== undefined) ? r : undefined;
        }, 'the source to settle');
        if (crashes === 1) assert.equal(s['status'], 'synched', JSON.stringify(s));
        else assert.match(String(s['error']), /stopped the local service 2 times/);
      } finally {
        await again.stop();
      }
    });
  }
});
