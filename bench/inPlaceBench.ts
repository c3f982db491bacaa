/**
 * Issue 16 on a generated 1 GB CSV (BENCH_INPLACE_MB to change) read in place by the local service,
 * run as its own process so its memory is its own:
 * - right-click to first answer: the file becomes a data source by path, is read, and the overview
 *   question "Analyze This File" asks is answered; against bare DuckDB's `read_csv` of the same
 *   file into an in-memory table with the service's thread and memory settings (the fastest table a
 *   bare DuckDB makes of it). Target: <= 1.3x.
 * - the bytes the service's data folder grew by besides the columnar cache, against the file's size.
 *   Target: < 5%.
 * - the service's peak resident memory over the whole run (the kernel's high-water mark). Target: < 1 GB.
 * And issue 27's big-file questions ("average revenue by region", asked twice after the overview):
 * - the first question asked right after the overview, which waits for the columnar copy written
 *   after the read and the question index built from it. Target: <= 2 s. Against bare DuckDB
 *   running the same question on the file.
 * - the same question again. Target: <= 0.5 s. Against the same bare query.
 * - the first question asked 5 s after the overview (a user reading it), on the same file added
 *   again as a second source. Target: <= 2 s.
 * - the columnar cache written into the data folder (the first source's), as a share of the file. Target: < 25%.
 * - bare DuckDB's floor for the first question and for the overview, for each order of the read and
 *   the copy (inPlaceFloor.ts): reported, they show why both targets are not met at once here.
 * The load average is noted: the machine may be shared.
 */
import { readFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { TeamDataClient } from '../src/api/index';
import { readCsvCall } from '../src/server/duckdb/csvIngest';
import { CACHE_DIR } from '../src/server/duckdb/inPlaceCache';
import { memoryLimitSetting } from '../src/server/duckdb/sandbox';
import { startServiceProcess } from './localServiceProcess';
import type { BenchResult } from './types';
import { generateCsv } from './uploadBench';
import { measureInPlaceFloor } from './inPlaceFloor';
import { treeBytes } from '../test/helpers/treeBytes';
import { DEFAULT_QUESTION, LOCAL_POLL } from '../src/shared/analyzeDefaults';

/** Polled as the extension polls the local service while a file is read (src/extension/flows/upload.ts). */
const EXTENSION_POLLING = { ...LOCAL_POLL, timeoutMs: 1_800_000 };

/** Bare DuckDB: read_csv of the file into an in-memory table, seconds. */
async function bareReadCsv(file: string, spill: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(Math.min(availableParallelism(), 8)), memory_limit: memoryLimitSetting(undefined), temp_directory: spill,
  });
  const conn = await instance.connect();
  try {
    const start = performance.now();
    await conn.run(`CREATE TABLE t AS SELECT * FROM ${readCsvCall(file, false)}`);
    return (performance.now() - start) / 1000;
  } finally {
    conn.disconnectSync();
    instance.closeSync();
  }
}

/** Bare DuckDB: the question's query ("average revenue by region") on the file, in seconds, the best of two. */
async function bareQuestion(file: string, spill: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(Math.min(availableParallelism(), 8)), memory_limit: memoryLimitSetting(undefined), temp_directory: spill,
  });
  const conn = await instance.connect();
  try {
    let best = Infinity;
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      await conn.runAndReadAll(`SELECT region, avg(revenue) AS avg_revenue FROM ${readCsvCall(file, false)} GROUP BY region ORDER BY avg_revenue DESC`);
      best = Math.min(best, (performance.now() - start) / 1000);
    }
    return best;
  } finally {
    conn.disconnectSync();
    instance.closeSync();
  }
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

/** The kernel's high-water mark of a process's resident memory, in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s*kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export async function runInPlaceBench(): Promise<BenchResult[]> {
  const mb = Number(process.env['BENCH_INPLACE_MB'] ?? process.env['BENCH_UPLOAD_MB'] ?? '1024');
  const dataRoot = join(__dirname, '.data');
  await mkdir(dataRoot, { recursive: true });
  const file = join(dataRoot, `upload-${mb}mb.csv`);
  await generateCsv(file, mb * 1024 * 1024);
  const size = (await stat(file)).size;
  const scratch = await mkdtemp(join(tmpdir(), 'team-data-bench-inplace-'));
  // Twice, keeping the best: the first run also pulls the file into the page cache.
  const bare = Math.min(await bareReadCsv(file, join(scratch, 'spill')), await bareReadCsv(file, join(scratch, 'spill')));
  const bareAsk = await bareQuestion(file, join(scratch, 'spill'));
  const floor = await measureInPlaceFloor(file, scratch);
  const loadBefore = load();
  const serviceDir = join(scratch, 'service');
  const service = await startServiceProcess(serviceDir, 'bench-local-key', ['--read-root', dataRoot]);
  try {
    const client = new TeamDataClient({ baseUrl: service.baseUrl, apiKey: 'bench-local-key', userId: 'bench' });
    const dataset = await client.datasets.create({ name: 'in place', description: '' });
    const session = await client.sessions.create({ title: 'in place' });
    const before = await treeBytes(serviceDir);
    const started = performance.now();
    const ds = await client.dataSources.create(dataset.id, { fileName: 'orders.csv', path: file });
    const ready = await client.dataSources.waitUntilSynched(dataset.id, ds.id, EXTENSION_POLLING);
    const readS = (performance.now() - started) / 1000;
    const ask = (question: string): ReturnType<typeof client.jobs.run> =>
      client.jobs.run({ sessionId: session.id, datasetId: dataset.id, datasourceIdList: [ready.id], question });
    const overview = await ask(DEFAULT_QUESTION);
    const firstS = (performance.now() - started) / 1000;
    const t1 = performance.now();
    const next = await ask('average revenue by region');
    const nextS = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    const again = await ask('average revenue by region');
    const againS = (performance.now() - t2) / 1000;
    // The copy's size, once it is written.
    const copyWait = performance.now();
    while ((await client.dataSources.get(dataset.id, ready.id)).cacheBytes === undefined && performance.now() - copyWait < 300_000) await new Promise((r) => setTimeout(r, 250));
    const copyS = (performance.now() - copyWait) / 1000;
    const cache = await treeBytes(join(serviceDir, CACHE_DIR)).catch(() => 0);
    const grown = (await treeBytes(serviceDir)) - before - cache;
    // A user who reads the overview first: the same file as a second source, its question asked 5 s
    // after the overview (the copy and the index are made meanwhile, in the background).
    const reader = await client.datasets.create({ name: 'in place, read first', description: '' });
    const ds2 = await client.dataSources.create(reader.id, { fileName: 'orders.csv', path: file });
    const ready2 = await client.dataSources.waitUntilSynched(reader.id, ds2.id, EXTENSION_POLLING);
    const ask2 = (question: string): ReturnType<typeof client.jobs.run> =>
      client.jobs.run({ sessionId: session.id, datasetId: reader.id, datasourceIdList: [ready2.id], question });
    const overview2 = await ask2(DEFAULT_QUESTION);
    await new Promise((r) => setTimeout(r, 5_000));
    const t3 = performance.now();
    const later = await ask2('average revenue by region');
    const laterS = (performance.now() - t3) / 1000;
    const loadAfter = load();
    const peak = await peakRssMiB(service.child.pid ?? 0);
    const answered = overview.state === 'done' && next.state === 'done' && again.state === 'done';
    return [
      {
        name: `Analyze This File on a ${mb} MB CSV read in place: right-click to first answer (the overview) vs bare DuckDB read_csv into a table`,
        ours: firstS, baseline: bare, ratio: firstS / bare, unit: 's', target: '<= 1.3x', pass: firstS / bare <= 1.3 && answered,
        note: `read ${readS.toFixed(1)} s; then "average revenue by region" ${nextS.toFixed(1)} s, asked again ${againS.toFixed(1)} s`,
      },
      {
        name: `in-place ${mb} MB CSV: extra bytes written into the data folder besides the columnar cache`,
        ours: grown / 1024 ** 2, baseline: size / 1024 ** 2, ratio: grown / size, unit: 'MB', target: '< 0.05 of the file', pass: grown < size * 0.05 && answered,
        note: `and a ${(cache / 1024 ** 2).toFixed(1)} MB columnar cache (${((100 * cache) / size).toFixed(1)}% of the file), written ${copyS.toFixed(1)} s after the repeated question`,
      },
      {
        name: `in-place ${mb} MB CSV: first question after the overview ("average revenue by region") vs bare DuckDB's query on the file`,
        ours: nextS, baseline: bareAsk, ratio: nextS / bareAsk, unit: 's', target: '<= 2 s', pass: nextS <= 2 && answered,
        note: `load average ${loadBefore} before, ${loadAfter} after (1, 5, 15 min; ${availableParallelism()} cores)`,
      },
      {
        name: `in-place ${mb} MB CSV: the same question again vs bare DuckDB's query on the file`,
        ours: againS, baseline: bareAsk, ratio: againS / bareAsk, unit: 's', target: '<= 0.5 s', pass: againS <= 0.5 && answered,
      },
      {
        name: `in-place ${mb} MB CSV: first question asked 5 s after the overview (a user reading it) vs bare DuckDB's query on the file`,
        ours: laterS, baseline: bareAsk, ratio: laterS / bareAsk, unit: 's', target: '<= 2 s', pass: laterS <= 2 && overview2.state === 'done' && later.state === 'done',
      },
      {
        name: `in-place ${mb} MB CSV, bare DuckDB's floor with the copy after the read (as built): first question after the overview = the copy + the question on it`,
        ours: floor.copy + floor.askOnCopy, baseline: 2, ratio: (floor.copy + floor.askOnCopy) / 2, unit: 's', target: 'report (vs the 2 s target)', pass: true,
        note: `copy ${floor.copy.toFixed(2)} s (RETURN_STATS), question on it ${floor.askOnCopy.toFixed(2)} s; the statistics scan of the CSV ${floor.statsOnCsv.toFixed(2)} s`,
      },
      {
        name: `in-place ${mb} MB CSV, bare DuckDB's floor with the copy first: overview = the copy + its statistics, vs bare read_csv into a table`,
        ours: floor.copy + floor.statsOnCopy, baseline: bare, ratio: (floor.copy + floor.statsOnCopy) / bare, unit: 's', target: 'report (vs the 1.3x target)', pass: true,
        note: `copy ${floor.copy.toFixed(2)} s, statistics from it ${floor.statsOnCopy.toFixed(2)} s; the service adds its sniffing and checks to either`,
      },
      {
        name: `in-place ${mb} MB CSV: columnar cache in the data folder vs the file`,
        ours: cache / 1024 ** 2, baseline: size / 1024 ** 2, ratio: cache / size, unit: 'MB', target: '< 0.25 of the file', pass: cache < size * 0.25,
      },
      {
        name: `in-place ${mb} MB CSV: peak resident memory of the local service process over two reads of the file and five answers`,
        ours: peak, baseline: size / 1024 ** 2, ratio: peak / (size / 1024 ** 2), unit: 'MiB', target: '< 1024 MiB', pass: peak < 1024,
      },
    ];
  } finally {
    await service.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
