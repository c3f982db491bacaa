/**
 * Disk cost of a file read in place (issue 16): a generated CSV (1 GB by default,
 * BENCH_INPLACE_MB to change) becomes a data source by path on the local service, is read, and
 * answers one question; the bytes its data folder grew by are compared with the file's size (an
 * upload writes the whole file, and ingestion a table of about the same size again).
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../src/api/index';
import { startLocalService } from '../src/server/localService';
import type { BenchResult } from './types';
import { generateCsv } from './uploadBench';

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await treeBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

export async function runInPlaceBench(): Promise<BenchResult[]> {
  const mb = Number(process.env['BENCH_INPLACE_MB'] ?? process.env['BENCH_UPLOAD_MB'] ?? '1024');
  const dataRoot = join(__dirname, '.data');
  await mkdir(dataRoot, { recursive: true });
  const file = join(dataRoot, `upload-${mb}mb.csv`);
  await generateCsv(file, mb * 1024 * 1024);
  const size = (await stat(file)).size;
  const serviceDir = await mkdtemp(join(tmpdir(), 'team-data-bench-inplace-'));
  const service = await startLocalService({ dataDir: serviceDir, apiKey: 'bench-local-key', readRoots: [dataRoot] });
  try {
    const client = new TeamDataClient({ baseUrl: service.baseUrl, apiKey: 'bench-local-key', userId: 'bench' });
    const dataset = await client.datasets.create({ name: 'in place', description: '' });
    const session = await client.sessions.create({ title: 'in place' });
    const before = await treeBytes(serviceDir);
    const started = performance.now();
    const ds = await client.dataSources.create(dataset.id, { fileName: 'orders.csv', path: file });
    const ready = await client.dataSources.waitUntilSynched(dataset.id, ds.id, { intervalMs: 200 });
    const readMs = performance.now() - started;
    const answer = await client.jobs.run({ sessionId: session.id, datasetId: dataset.id, datasourceIdList: [ready.id], question: 'average revenue by region' });
    const answeredMs = performance.now() - started;
    const grown = (await treeBytes(serviceDir)) - before;
    return [{
      name: `in-place ${mb} MB CSV: extra bytes written into the data folder`,
      ours: grown / 1024 ** 2,
      baseline: size / 1024 ** 2,
      ratio: grown / size,
      unit: 'MB',
      target: '< 0.05 of the file',
      pass: grown < size * 0.05 && answer.state === 'done',
      note: `read in ${(readMs / 1000).toFixed(1)} s, first answer after ${(answeredMs / 1000).toFixed(1)} s (${answer.state})`,
    }];
  } finally {
    await service.close();
    await rm(serviceDir, { recursive: true, force: true });
  }
}
