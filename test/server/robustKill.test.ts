/**
 * `kill -9` of a child-process service at awkward moments: in the middle of ingesting a big CSV,
 * and in the middle of bursts of metadata writes. After each, the metadata must parse and a
 * restarted service must come up with the interrupted source retried (or failed with a reason).
 */
import { strict as assert } from 'node:assert';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, killHard, startChild, uploadSource, type Child, type Rec } from '../helpers/childService';
import { eventually, startHarness, TEST_KEY, USER } from '../helpers/serverHarness';

async function writeBigCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,customer,region,amount,ordered_at,note\n');
  const regions = ['north', 'south', 'east', 'west'];
  for (let i = 0; i < rows; i += 10_000) {
    let chunk = '';
    for (let j = i; j < Math.min(rows, i + 10_000); j++) {
      chunk += `${j},cust${j % 9973},${regions[j % 4] as string},${((j * 37) % 100000) / 100},2024-${String((j % 12) + 1).padStart(2, '0')}-${String((j % 28) + 1).padStart(2, '0')},note ${j % 101}\n`;
    }
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

describe('local service: kill -9 and restart', function () {
  this.timeout(180_000);
  const children: Child[] = [];
  const dirs: string[] = [];
  after(async () => {
    for (const c of children) await killHard(c);
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('recovers a source whose ingestion was killed mid-way', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-data-kill-'));
    dirs.push(dir);
    const csvDir = await mkdtemp(join(tmpdir(), 'team-data-bigcsv-'));
    dirs.push(csvDir);
    const csv = join(csvDir, 'big.csv');
    await writeBigCsv(csv, 1_500_000);
    const child = await startChild(dir);
    children.push(child);
    const ds = ((await call(child.baseUrl, 'POST', '/v1/team/datasets', { name: 'big', description: '' }))['data'] as Rec)['id'] as string;
    const form = new FormData();
    form.append('file', await openAsBlob(csv), 'big.csv');
    const up = (await (await fetch(`${child.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form })).json()) as { data: { fileKey: string } };
    const src = ((await call(child.baseUrl, 'POST', `/v1/team/datasets/${ds}/datasources?userId=${USER}`, { fileName: 'big.csv', type: 'FILE', fileKey: up.data.fileKey }))['data'] as Rec)['id'] as string;
    await eventually(async () => {
      const s = (await call(child.baseUrl, 'GET', `/v1/team/datasets/${ds}/datasources/${src}`))['data'] as Rec;
      assert.notEqual(s['status'], 'synched', 'ingestion finished before the kill; the file is too small for this machine');
      return s['status'] === 'synching' ? true : undefined;
    }, 'ingestion to start', 2000, 5);
    await killHard(child);

    // Whatever the moment, the metadata parses and shows the source unfinished (synching, or still
    // awaiting processing if the kill beat the write of the status change), never failed.
    const state = JSON.parse(await readFile(join(dir, 'meta', 'state.json'), 'utf8')) as { sources: Rec[] };
    const interrupted = state.sources.find((s) => s['id'] === src);
    assert.ok(interrupted && ['synching', 'invalid'].includes(interrupted['status'] as string), JSON.stringify(interrupted));
    assert.equal(interrupted['error'], undefined);

    const h = await startHarness({}, dir);
    try {
      const settled = await eventually(async () => {
        const s = (await h.call('GET', `/v1/team/datasets/${ds}/datasources/${src}`)).json?.data as Rec;
        return s['status'] === 'synched' || (s['status'] === 'invalid' && s['error'] !== undefined) ? s : undefined;
      }, 'the interrupted source to be retried', 1200, 100);
      assert.equal(settled['status'], 'synched', JSON.stringify(settled));
      const job = await h.call('POST', '/v1/team/jobs', {
        sessionId: ((await h.call('POST', '/v1/team/sessions', { userId: USER })).json?.data as Rec)['id'], question: 'How many rows?', datasetId: ds, stream: false,
      });
      assert.equal(job.json?.code, 0, job.text);
      assert.match(job.text, /1[,.  ]?500[,.  ]?000/);
    } finally {
      await h.stop(true);
    }
  });

  it('stops on SIGTERM in the middle of an ingest, leaving the source to resume', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-data-term-'));
    dirs.push(dir);
    const csv = join(dir, 'big.csv');
    await writeBigCsv(csv, 1_500_000);
    const child = await startChild(join(dir, 'data'));
    children.push(child);
    const { datasetId, sourceId } = await uploadSource(child.baseUrl, csv);
    await eventually(async () => {
      const s = (await call(child.baseUrl, 'GET', `/v1/team/datasets/${datasetId}/datasources/${sourceId}`))['data'] as Rec;
      assert.notEqual(s['status'], 'synched', 'ingestion finished before SIGTERM; the file is too small for this machine');
      return s['status'] === 'synching' ? true : undefined;
    }, 'ingestion to start', 2000, 5);
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child.proc.once('exit', (code) => resolve(code)));
    process.kill(child.proc.pid as number, 'SIGTERM');
    const code = await exited;
    console.log(`      SIGTERM during an ingest: stopped after ${Date.now() - started} ms (exit ${String(code)})`);
    assert.ok(code === 0 || code === 1, `exit code ${String(code)}`);
    const state = JSON.parse(await readFile(join(dir, 'data', 'meta', 'state.json'), 'utf8')) as { sources: Rec[] };
    const rec = state.sources.find((r) => r['id'] === sourceId);
    assert.equal(rec?.['error'], undefined, 'an interrupted source is not failed');
  });

  it('keeps metadata readable when killed during bursts of writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-data-kill-'));
    dirs.push(dir);
    const delays = [40, 170, 95];
    let created = 0;
    for (const delay of delays) {
      const child = await startChild(dir);
      children.push(child);
      let stop = false;
      const burst = async (): Promise<void> => {
        while (!stop) {
          try {
            const r = await call(child.baseUrl, 'POST', '/v1/team/datasets', { name: `d${created}`, description: 'x'.repeat(2000) });
            if (r['code'] === 0) created++;
          } catch {
            return; // killed
          }
        }
      };
      const workers = Array.from({ length: 6 }, burst);
      await new Promise((r) => setTimeout(r, delay));
      await killHard(child);
      stop = true;
      await Promise.all(workers);
      let text: string;
      try {
        text = await readFile(join(dir, 'meta', 'state.json'), 'utf8');
      } catch (e) {
        // Only acceptable if killed before the first write was acknowledged.
        assert.equal(created, 0, String(e));
        continue;
      }
      const state = JSON.parse(text) as { datasets: Rec[] };
      assert.ok(Array.isArray(state.datasets));
    }
    const h = await startHarness({}, dir);
    try {
      const page = (await h.call('GET', '/v1/team/datasets?pageSize=1')).json?.data as Rec;
      // Every create that was answered had been written before its answer.
      assert.ok((page['total'] as number) >= created, `${String(page['total'])} >= ${created}`);
    } finally {
      await h.stop(true);
    }
  });
});
