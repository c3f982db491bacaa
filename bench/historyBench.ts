/**
 * What writing history durably before END_MARK costs (issue 12): streamed jobs against the built
 * service in a child process; for each, the time from the last answer block to END_MARK (the
 * fsynced history write now sits there) against the whole job. Target: under 10 ms added at the
 * median (a ratio would mostly measure how small the job is: a local answer takes about 10 ms).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from './localServiceProcess';
import type { BenchResult } from './types';

const JOBS = 30;
const KEY = 'bench-key-0123456789';

async function api(baseUrl: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, { method, headers: { 'x-pd-api-key': KEY, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function runHistoryBench(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-history-bench-'));
  const svc = await startServiceProcess(join(dir, 'data'), KEY);
  try {
    const csv = `region,amount\n${Array.from({ length: 2000 }, (_, i) => `${['north', 'south', 'east', 'west'][i % 4] as string},${(i * 37) % 500}`).join('\n')}\n`;
    await writeFile(join(dir, 'sales.csv'), csv);
    const ds = await api(svc.baseUrl, 'POST', '/v1/team/datasets', { name: 'bench', description: '' });
    const form = new FormData();
    form.append('file', new Blob([csv]), 'sales.csv');
    const up = (await (await fetch(`${svc.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': KEY }, body: form })).json()) as { data: { fileKey: string } };
    const src = await api(svc.baseUrl, 'POST', `/v1/team/datasets/${String(ds['id'])}/datasources?userId=bench`, { fileName: 'sales.csv', type: 'FILE', fileKey: up.data.fileKey });
    for (let i = 0; i < 200; i++) {
      const s = await api(svc.baseUrl, 'GET', `/v1/team/datasets/${String(ds['id'])}/datasources/${String(src['id'])}`);
      if (s['status'] === 'synched') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const session = await api(svc.baseUrl, 'POST', '/v1/team/sessions', { userId: 'bench' });
    const tails: number[] = [];
    const totals: number[] = [];
    for (let n = 0; n < JOBS + 3; n++) {
      const start = performance.now();
      const res = await fetch(`${svc.baseUrl}/v1/team/jobs`, {
        method: 'POST', headers: { 'x-pd-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: session['id'], datasetId: ds['id'], question: `total amount by region (${n})`, stream: true }),
      });
      const reader = res.body?.getReader();
      const decoder = new TextDecoder();
      let raw = '';
      let lastBlock = start;
      let end = NaN;
      while (reader) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        raw += text;
        if (/event:\s*(MESSAGE|TABLE|CODE|IMAGE|SOURCES|QUESTIONS)/.test(text)) lastBlock = performance.now();
        if (text.includes('END_MARK')) end = performance.now();
      }
      if (n < 3 || !raw.includes('END_MARK')) continue; // warm-up
      tails.push(end - lastBlock);
      totals.push(end - start);
    }
    const tail = median(tails);
    const total = median(totals);
    return [{
      name: `streamed job, history fsynced before END_MARK (${JOBS} jobs, median)`,
      ours: total, baseline: total - tail, ratio: total / (total - tail), unit: 'ms',
      target: '< 10 ms added per job', pass: tail < 10,
      note: `last answer block to END_MARK: ${tail.toFixed(1)} ms median (the durable history write); baseline = the job up to its last block`,
    }];
  } finally {
    await svc.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
