/**
 * The local service as a real child process (`src/server/main.ts` under tsx), for tests that kill
 * it, watch its memory or check that it survived: start, call, upload, sample RSS, kill -9.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_KEY, USER } from './serverHarness';

export type Rec = Record<string, unknown>;
const ROOT = join(__dirname, '..', '..');

export interface Child {
  proc: ChildProcess;
  baseUrl: string;
  /** Everything the service wrote to stderr so far. */
  stderr(): string;
}

export function startChild(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'server', 'main.ts'), '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env, TEAM_DATA_API_KEY: TEST_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      const info = JSON.parse(line) as { baseUrl: string; port: number };
      assert.equal(typeof info.port, 'number');
      assert.ok(!('apiKey' in info), 'a key given by env is not printed');
      resolve({ proc, baseUrl: info.baseUrl, stderr: () => stderr });
    });
    proc.once('exit', (code) => reject(new Error(`service exited early (${String(code)}): ${stderr}`)));
  });
}

/** Whether the child has exited (by itself, a signal or a crash). */
export const exited = (c: Child): boolean => c.proc.exitCode !== null || c.proc.signalCode !== null;

export function killHard(c: Child): Promise<void> {
  return new Promise((resolve) => {
    if (exited(c)) return resolve();
    c.proc.once('exit', () => resolve());
    process.kill(c.proc.pid as number, 'SIGKILL');
  });
}

export async function call(baseUrl: string, method: string, path: string, body?: unknown): Promise<Rec> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-pd-api-key': TEST_KEY, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Rec;
}

/** Creates a dataset holding the file at `path` (uploaded under `name`); returns both ids. */
export async function uploadSource(baseUrl: string, path: string, name = basename(path)): Promise<{ datasetId: string; sourceId: string }> {
  const datasetId = ((await call(baseUrl, 'POST', '/v1/team/datasets', { name, description: '' }))['data'] as Rec)['id'] as string;
  const form = new FormData();
  form.append('file', await openAsBlob(path), name);
  const up = (await (await fetch(`${baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form })).json()) as { data: { fileKey: string } };
  const sourceId = ((await call(baseUrl, 'POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: name, type: 'FILE', fileKey: up.data.fileKey }))['data'] as Rec)['id'] as string;
  return { datasetId, sourceId };
}

/** Resident memory of a process in bytes (Linux /proc), or undefined once it is gone. */
export async function rssBytes(pid: number): Promise<number | undefined> {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until `stop()`, which returns the peak seen. */
export function watchPeakRss(pid: number, everyMs = 50): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, (await rssBytes(pid)) ?? 0);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}
