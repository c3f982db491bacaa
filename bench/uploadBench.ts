/**
 * Upload of a large generated CSV (1 GB by default, `BENCH_UPLOAD_MB`) to the local service, by
 * both API versions side by side in one run: v1's one form POST against `curl -F`, v2's multipart
 * upload (init, parts PUT three at a time, complete) against curl PUTting the same parts three at
 * a time; and the client's peak RSS growth on each path (it must stream, not buffer).
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { TeamDataClient } from '../src/api/index';
import { curlFormUpload, curlPartsUpload } from './curlUpload';
import { startServiceProcess } from './localServiceProcess';
import type { BenchResult } from './types';

const run = promisify(execFile);
const ROUNDS = 3;

/** Removes what earlier uploads left in the service's data dir and flushes the disk. */
async function clearUploads(serviceDir: string): Promise<void> {
  const uploads = join(serviceDir, 'uploads');
  for (const name of await readdir(uploads).catch(() => [] as string[])) await rm(join(uploads, name), { force: true });
  await run('sync');
}

/** Writes `bytes` of realistic CSV rows (varied values so nothing compresses or dedupes). */
export async function generateCsv(path: string, bytes: number): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing && existing.size >= bytes) return;
  const out = createWriteStream(path);
  out.write('order_id,order_date,region,channel,product,quantity,unit_price,revenue\n');
  const regions = ['Europe', 'North America', 'Asia', 'South America', 'Africa', 'Oceania'];
  const channels = ['online', 'retail', 'partner'];
  let written = 0;
  let id = 0;
  let seed = 42;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  while (written < bytes) {
    let chunk = '';
    for (let i = 0; i < 10_000; i++) {
      id++;
      const q = 1 + Math.floor(rand() * 20);
      const p = (5 + rand() * 500).toFixed(2);
      const day = 1 + Math.floor(rand() * 28);
      const month = 1 + Math.floor(rand() * 12);
      chunk += `${id},2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')},${regions[id % 6]},${channels[id % 3]},SKU-${Math.floor(rand() * 5000)},${q},${p},${(q * Number(p)).toFixed(2)}\n`;
    }
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

type Path = 'ours v1' | 'curl v1' | 'ours v2' | 'curl v2';

interface Samples {
  ms: number[];
  cpuMs: number[];
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export async function runUploadBench(): Promise<BenchResult[]> {
  const mb = Number(process.env['BENCH_UPLOAD_MB'] ?? '1024');
  // A fresh file in a temp dir, removed at the end: 1 GB is not worth keeping around.
  const fileDir = await mkdtemp(join(tmpdir(), 'team-data-upload-bench-'));
  const file = join(fileDir, `upload-${mb}mb.csv`);
  const serviceDir = await mkdtemp(join(tmpdir(), 'team-data-bench-'));
  const apiKey = 'bench-local-key';
  const userId = 'bench';
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  try {
    await generateCsv(file, mb * 1024 * 1024);
    const size = (await stat(file)).size;
    service = await startServiceProcess(serviceDir, apiKey);
    const baseUrl = service.baseUrl;
    const v1 = new TeamDataClient({ baseUrl, apiKey, userId, apiVersion: 'v1' });
    const v2 = new TeamDataClient({ baseUrl, apiKey, userId, apiVersion: 'v2' });
    const samples: Record<Path, Samples> = {
      'ours v1': { ms: [], cpuMs: [] }, 'curl v1': { ms: [], cpuMs: [] }, 'ours v2': { ms: [], cpuMs: [] }, 'curl v2': { ms: [], cpuMs: [] },
    };
    const peakGrowth = { v1: 0, v2: 0 };
    const ours = (client: TeamDataClient, version: 'v1' | 'v2') => async (record: boolean): Promise<void> => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      await client.files.upload(file, {});
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const used = process.cpuUsage(cpu);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      peakGrowth[version] = Math.max(peakGrowth[version], peak - before);
      if (record) {
        samples[`ours ${version}`].ms.push(ms);
        samples[`ours ${version}`].cpuMs.push((used.user + used.system) / 1000);
      }
    };
    const curl = (path: 'curl v1' | 'curl v2') => async (record: boolean): Promise<void> => {
      const r = path === 'curl v1'
        ? await curlFormUpload(file, `${baseUrl}/v1/team/file/upload-datasource?userId=${userId}`, apiKey)
        : await curlPartsUpload(file, size, basename(file), baseUrl, apiKey, userId);
      if (record) {
        samples[path].ms.push(r.ms);
        samples[path].cpuMs.push(r.cpuMs);
      }
    };
    const paths: Array<[Path, (record: boolean) => Promise<void>]> = [
      ['curl v1', curl('curl v1')], ['ours v1', ours(v1, 'v1')], ['curl v2', curl('curl v2')], ['ours v2', ours(v2, 'v2')],
    ];
    // The service's first upload runs cold (its JIT, the file's pages): one untimed upload by
    // each path first, so no path's first measured round pays for it.
    for (const [, measure] of paths) {
      await clearUploads(serviceDir);
      await measure(false);
    }
    // Each upload writes a whole file on the server's disk, and the write-back of the previous
    // one slows the next: every upload starts on a flushed disk with the earlier uploads removed,
    // the order turns each round, and the medians are compared.
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < paths.length; k++) {
        const [, measure] = paths[(k + round) % paths.length] as [Path, (record: boolean) => Promise<void>];
        await clearUploads(serviceDir);
        await measure(true);
      }
    }
    await clearUploads(serviceDir);
    const mbs = (path: Path): number => size / 1e6 / (median(samples[path].ms) / 1000);
    const perRound = (path: Path): string => samples[path].ms.map((ms) => (size / 1e3 / ms).toFixed(0)).join('/');
    const cpu = (path: Path): string => (median(samples[path].cpuMs) / 1000).toFixed(2);
    const fileMiB = size / (1024 * 1024);
    const throughput = (version: 'v1' | 'v2', how: string, curlHow: string): BenchResult => {
      const ratio = mbs(`ours ${version}`) / mbs(`curl ${version}`);
      return {
        name: `upload ${mb} MB CSV, ${version} (${how}): throughput vs ${curlHow}`, ours: mbs(`ours ${version}`), baseline: mbs(`curl ${version}`), ratio,
        unit: 'MB/s', target: '>= 0.8x', pass: ratio >= 0.8,
        note: `median of ${ROUNDS} rounds in turning order after one warm-up each, every upload on a flushed disk; ours ${perRound(`ours ${version}`)} MB/s, curl ${perRound(`curl ${version}`)} MB/s; client CPU per upload (median) ours ${cpu(`ours ${version}`)} s, curl ${cpu(`curl ${version}`)} s`,
      };
    };
    const growth = (version: 'v1' | 'v2', how: string): BenchResult => {
      const growthMiB = peakGrowth[version] / (1024 * 1024);
      return {
        name: `upload ${mb} MB CSV, ${version} (${how}): client peak RSS growth`, ours: growthMiB, baseline: fileMiB,
        ratio: growthMiB / fileMiB, unit: 'MiB (baseline = file size)', target: '< 100 MiB growth', pass: growthMiB < 100,
      };
    };
    return [
      throughput('v1', 'one form POST', 'curl -F'),
      throughput('v2', 'multipart, 3 parts in flight', 'curl PUTs of the same parts, 3 at a time'),
      growth('v1', 'one form POST'),
      growth('v2', 'multipart'),
    ];
  } finally {
    await service?.stop();
    await rm(serviceDir, { recursive: true, force: true });
    await rm(fileDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runUploadBench().then((r) => console.log(JSON.stringify(r, null, 2)), (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
