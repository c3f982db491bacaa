/**
 * One local service shared by every client (issue 23), against the built CLI (`dist/cli.js serve
 * --shared`, started detached by the first client as in real use):
 * - first start of the service (reported on its own) and attach of a further client (a window or
 *   the CLI) to the running one: target under 200 ms at the median;
 * - three windows and the CLI asking at once, 50 questions each, against the same 200 questions
 *   asked one by one first (the baseline): every concurrent answer must be the one its question
 *   got alone (0 lost, 0 mixed); the ratio is the concurrent wall time over the sequential one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TeamDataClient } from '../src/api/index';
import { answerBlocks } from '../src/shared/answerFold';
import { attachOrStart, type Attached } from '../src/cli/serviceAttach';
import { processAlive, readDiscovery } from '../src/server/daemon/discovery';
import type { BenchResult } from './types';

const CLI = resolve(__dirname, '..', 'dist', 'cli.js');
const CLIENTS = ['window-1', 'window-2', 'window-3', 'cli'];
const PER_CLIENT = 50;
const REGIONS = ['north', 'south', 'east', 'west', 'central'];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function stop(dataDir: string): Promise<void> {
  const read = await readDiscovery(dataDir);
  if (!read?.ok) return;
  process.kill(read.discovery.pid, 'SIGTERM');
  while (processAlive(read.discovery.pid)) await new Promise((r) => setTimeout(r, 50));
}

function attach(dataDir: string, client: string): Promise<Attached> {
  return attachOrStart({ dataDir, cliPath: CLI, version: 'bench', client, env: { ...process.env, TEAM_DATA_IDLE_MS: '2000' } });
}

/** The answer's text and code blocks (file links differ per job, so tables are compared by their SQL). */
function fingerprint(blocks: ReturnType<typeof answerBlocks>): string {
  return blocks.filter((b) => b.type === 'MESSAGE' || b.type === 'CODE').map((b) => String(b.content)).join('\n');
}

export async function runSharedBench(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-shared-bench-'));
  const folders: string[] = [];
  try {
    // First starts, each on a fresh data folder.
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const data = join(dir, `fresh-${i}`);
      folders.push(data);
      const a = await attach(data, 'window-1');
      starts.push(a.ms);
      await a.lease.release();
      await stop(data);
    }
    const data = join(dir, 'shared');
    folders.push(data);
    const first = await attach(data, 'window-1');
    const attaches: number[] = [];
    for (let i = 0; i < 20; i++) {
      const a = await attach(data, i % 2 === 0 ? 'cli' : 'window-2');
      attaches.push(a.ms);
      await a.lease.release();
    }

    // The data and the 200 questions, answered one by one as the baseline.
    const csv = `region,product,amount\n${Array.from({ length: 5000 }, (_, i) => `${REGIONS[i % 5] as string},p${i % 13},${(i * 37) % 997}.5`).join('\n')}\n`;
    await writeFile(join(dir, 'sales.csv'), csv);
    const holders = [first, ...(await Promise.all(CLIENTS.slice(1).map((c) => attach(data, c))))];
    const clients = holders.map((h) => new TeamDataClient({ baseUrl: h.discovery.baseUrl, apiKey: h.discovery.apiKey, userId: 'bench', timeoutMs: 120_000 }));
    const c0 = clients[0] as TeamDataClient;
    const { fileKey } = await c0.files.upload(join(dir, 'sales.csv'));
    const ds = await c0.datasets.create({ name: 'shared bench', description: '' });
    const src = await c0.dataSources.create(ds.id, { fileName: 'sales.csv', fileKey });
    await c0.dataSources.waitUntilSynched(ds.id, src.id, { intervalMs: 50 });
    const questions = CLIENTS.map((_, c) => Array.from({ length: PER_CLIENT }, (_, q) => {
      const k = c * PER_CLIENT + q;
      return `total amount for ${REGIONS[k % 5] as string} where product is p${k % 13}`;
    }));
    const ask = async (client: TeamDataClient, sessionId: string, question: string): Promise<string> =>
      fingerprint(answerBlocks(await client.jobs.run({ sessionId, question, datasetId: ds.id })));
    const expected = new Map<string, string>();
    const seqStart = performance.now();
    const solo = await c0.sessions.create({ title: 'one by one' });
    for (const q of questions.flat()) expected.set(q, await ask(c0, solo.id, q));
    const sequentialMs = performance.now() - seqStart;

    let lost = 0;
    let mixed = 0;
    const conStart = performance.now();
    await Promise.all(clients.map(async (client, c) => {
      const session = await client.sessions.create({ title: CLIENTS[c] as string });
      for (const q of questions[c] as string[]) {
        const got = await ask(client, session.id, q).catch(() => undefined);
        if (got === undefined) lost++;
        else if (got !== expected.get(q)) mixed++;
      }
    }));
    const concurrentMs = performance.now() - conStart;
    for (const h of holders) await h.lease.release();

    const attachMs = median(attaches);
    const startMs = median(starts);
    const total = CLIENTS.length * PER_CLIENT;
    return [
      {
        name: 'attach of a second window or the CLI to the running service (median of 20; first start reported as the baseline)',
        ours: attachMs, baseline: startMs, ratio: attachMs / startMs, unit: 'ms', target: 'attach < 200 ms',
        pass: attachMs < 200, note: `first start of the service: median ${startMs.toFixed(0)} ms of 3 (${starts.map((s) => s.toFixed(0)).join(', ')} ms)`,
      },
      {
        name: `3 windows and the CLI asking at once, ${PER_CLIENT} questions each (wall time; baseline: the same ${total} one by one)`,
        ours: concurrentMs, baseline: sequentialMs, ratio: concurrentMs / sequentialMs, unit: 'ms', target: '0 lost or mixed answers',
        pass: lost === 0 && mixed === 0, note: `${total - lost - mixed} of ${total} answers identical to their question's answer alone; lost ${lost}, mixed ${mixed}; ${new Set(expected.values()).size} distinct answers among the ${expected.size} questions`,
      },
    ];
  } finally {
    for (const f of folders) await stop(f).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
