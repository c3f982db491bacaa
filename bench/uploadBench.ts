/**
 * Upload of a large generated CSV to the local service: the client's peak RSS growth (it must
 * stream, not buffer) and its throughput against `curl -F` sending the same file to the same
 * endpoint, measured alternately in one run.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { TeamDataClient } from '../src/api/index';
import { startServiceProcess } from './localServiceProcess';
import type { BenchResult } from './types';

const run = promisify(execFile);
const ROUNDS = 6;

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

/** Seconds from bash's `times` line ("0m0.060s 0m0.610s"): user + system. */
function timesSeconds(line: string): number {
  let total = 0;
  for (const m of line.matchAll(/(\d+)m([\d.]+)s/g)) total += Number(m[1]) * 60 + Number(m[2]);
  return total;
}

/** One curl upload: wall time and curl's own CPU time (bash's `times` of its child). */
async function curlUpload(file: string, url: string, apiKey: string): Promise<{ ms: number; cpuMs: number }> {
  const started = process.hrtime.bigint();
  // The key goes in a header read from stdin-free args; this is a local throwaway key.
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}\n', '-H', `x-pd-api-key: ${apiKey}`, '-F', `file=@${file}`, url];
  const { stdout } = await run('bash', ['-c', 'curl "$@" && times', 'bash', ...args], { maxBuffer: 1 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const [code, , children] = stdout.trim().split('\n');
  if (code?.trim() !== '200') throw new Error(`curl upload answered HTTP ${code}`);
  return { ms, cpuMs: timesSeconds(children ?? '') * 1000 };
}

export async function runUploadBench(): Promise<BenchResult[]> {
  const mb = Number(process.env['BENCH_UPLOAD_MB'] ?? '1024');
  const dataRoot = join(__dirname, '.data');
  await mkdir(dataRoot, { recursive: true });
  const file = join(dataRoot, `upload-${mb}mb.csv`);
  await generateCsv(file, mb * 1024 * 1024);
  const size = (await stat(file)).size;
  const serviceDir = await mkdtemp(join(tmpdir(), 'team-data-bench-'));
  const apiKey = 'bench-local-key';
  const service = await startServiceProcess(serviceDir, apiKey);
  try {
    const client = new TeamDataClient({ baseUrl: service.baseUrl, apiKey, userId: 'bench' });
    const url = `${service.baseUrl}/v1/team/file/upload-datasource?userId=bench`;
    const ours: number[] = [];
    const curl: number[] = [];
    const oursCpu: number[] = [];
    const curlCpu: number[] = [];
    let peakGrowth = 0;
    const measureOurs = async (): Promise<void> => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      await client.files.upload(file, {});
      ours.push(Number(process.hrtime.bigint() - started) / 1e6);
      const used = process.cpuUsage(cpu);
      oursCpu.push((used.user + used.system) / 1000);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      peakGrowth = Math.max(peakGrowth, peak - before);
    };
    const measureCurl = async (): Promise<void> => {
      const r = await curlUpload(file, url, apiKey);
      curl.push(r.ms);
      curlCpu.push(r.cpuMs);
    };
    // The service's first upload runs cold (its JIT, the file's pages): one untimed upload by
    // each client first, so neither side's first measured round pays for it.
    await clearUploads(serviceDir);
    await curlUpload(file, url, apiKey);
    await clearUploads(serviceDir);
    await client.files.upload(file, {});
    // Each upload writes a whole file on the server's disk, and the write-back of the previous
    // one slows the next: every upload starts on a flushed disk with the earlier uploads removed,
    // the order alternates, and the medians are compared.
    for (let round = 0; round < ROUNDS; round++) {
      for (const measure of round % 2 === 0 ? [measureCurl, measureOurs] : [measureOurs, measureCurl]) {
        await clearUploads(serviceDir);
        await measure();
      }
    }
    await clearUploads(serviceDir);
    const median = (xs: number[]): number => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
    };
    const oursMBs = size / 1e6 / (median(ours) / 1000);
    const curlMBs = size / 1e6 / (median(curl) / 1000);
    const growthMB = peakGrowth / (1024 * 1024);
    return [
      {
        name: `upload ${mb} MB CSV: throughput vs curl -F`, ours: oursMBs, baseline: curlMBs, ratio: oursMBs / curlMBs,
        unit: 'MB/s', target: '>= 0.8x', pass: oursMBs / curlMBs >= 0.8,
        note: `median of ${ROUNDS} alternating rounds after one warm-up each, every upload on a flushed disk; ours ${ours.map((ms) => (size / 1e3 / ms).toFixed(0)).join('/')} MB/s, curl ${curl.map((ms) => (size / 1e3 / ms).toFixed(0)).join('/')} MB/s; client CPU per upload (median) ours ${(median(oursCpu) / 1000).toFixed(2)} s, curl ${(median(curlCpu) / 1000).toFixed(2)} s`,
      },
      {
        name: `upload ${mb} MB CSV: client peak RSS growth`, ours: growthMB, baseline: size / (1024 * 1024),
        ratio: growthMB / (size / (1024 * 1024)), unit: 'MiB (baseline = file size)', target: '< 100 MiB growth',
        pass: growthMB < 100,
      },
    ];
  } finally {
    await service.stop();
    await rm(serviceDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runUploadBench().then((r) => console.log(JSON.stringify(r, null, 2)), (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
