/**
 * Restart keeps everything: datasets, processed sources (their DuckDB tables too), sessions with
 * their titles, history with working file links, uploads not yet used, and links minted before
 * the restart.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBlocks } from '../../src/shared/blockCodecV1';
import { eventually, newSession, seedDataset, startHarness, streamJob, TEST_KEY, USER } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;
const CSV = `city,population\n${Array.from({ length: 12 }, (_, i) => `city${i},${(i + 1) * 1000}`).join('\n')}\n`;

describe('local service: restart keeps data', function () {
  this.timeout(60_000);

  it('serves the same data after a restart on the same data dir', async () => {
    const h = await startHarness();
    try {
      const { datasetId, sourceIds } = await seedDataset(h, { 'cities.csv': CSV });
      const sessionId = await newSession(h, { maxMessagesInContext: 4, languageType: 'DE' });
      const cap = await streamJob(h.baseUrl, { sessionId, question: 'population by city', datasetId, datasourceIdList: sourceIds });
      assert.equal(cap.events[cap.events.length - 1]?.data, '[DONE]');
      const before = (await eventually(async () => {
        const p = (await h.call('GET', `/v1/team/sessions/${sessionId}/history`)).json?.data as Rec;
        return (p['records'] as Rec[]).length === 1 ? p : undefined;
      }, 'history')) as Rec;
      const oldTable = decodeBlocks((((before['records'] as Rec[])[0] as Rec)['answer'] as Rec)['blocks']).find((b) => b.type === 'TABLE');
      assert.ok(oldTable?.type === 'TABLE');
      const form = new FormData();
      form.append('file', new Blob(['a,b\n1,2\n']), 'later.csv');
      const up = (await (await fetch(`${h.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form })).json()) as { data: { fileKey: string } };
      const session = (await h.call('GET', `/v1/team/sessions/${sessionId}`)).json?.data as Rec;
      const source = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${sourceIds[0] as string}`)).json?.data as Rec;

      // Debris a crash could leave: partial and unreferenced files.
      const debris = [join('uploads', 'f00dfeedf00dfeedf00dfeed.part'), join('uploads', 'deadbeefdeadbeefdeadbeef'), join('sources', 'deadbeefdeadbeefdeadbeef.csv'), join('sources', `${sourceIds[0] as string}.csv.part`),
        // A published answer file whose meta was never written, and a meta without its file.
        join('files', 'abadcafeabadcafeabadcafe'), join('files', 'facefeedfacefeedfacefeed.json')];
      for (const d of debris) await writeFile(join(h.dataDir, d), 'x');

      await h.restart();

      for (const d of debris) assert.equal(existsSync(join(h.dataDir, d)), false, d);
      assert.equal(existsSync(join(h.dataDir, 'sources', `${sourceIds[0] as string}.csv`)), true);

      assert.deepEqual((await h.call('GET', `/v1/team/sessions/${sessionId}`)).json?.data, session);
      assert.deepEqual((await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${sourceIds[0] as string}`)).json?.data, source);
      const datasets = (await h.call('GET', '/v1/team/datasets')).json?.data as Rec;
      assert.ok((datasets['records'] as Rec[]).some((d) => d['id'] === datasetId));
      const after = (await h.call('GET', `/v1/team/sessions/${sessionId}/history?userId=${USER}`)).json?.data as Rec;
      const rec = (after['records'] as Rec[])[0] as Rec;
      assert.equal(rec['jobId'], ((before['records'] as Rec[])[0] as Rec)['jobId']);
      const table = decodeBlocks((rec['answer'] as Rec)['blocks']).find((b) => b.type === 'TABLE');
      assert.ok(table?.type === 'TABLE');
      // Fresh link on the new port works, and so does the old one (same secret; only the port changed).
      assert.equal((await fetch(table.content.url)).status, 200);
      const oldOnNewPort = new URL(oldTable.content.url);
      oldOnNewPort.port = new URL(h.baseUrl).port;
      assert.equal((await fetch(oldOnNewPort)).status, 200);
      // The upload made before the restart can still become a source.
      const c = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: 'later.csv', type: 'FILE', fileKey: up.data.fileKey });
      assert.equal(c.json?.code, 0, c.text);
      // The processed source is still queryable: a new job on it completes with a table.
      const again = await h.call('POST', '/v1/team/jobs', { sessionId, question: 'Once more', datasetId, datasourceIdList: sourceIds, stream: false });
      assert.equal(again.json?.code, 0, again.text);
      assert.ok(decodeBlocks((again.json?.data as Rec)['blocks']).some((b) => b.type === 'TABLE'));
    } finally {
      await h.stop();
    }
  });
});
