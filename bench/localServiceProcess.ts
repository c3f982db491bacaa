/**
 * Starts the built CLI's `serve` as a child process so a benchmark measures the client process
 * alone (the server's memory and CPU are not in the numbers). Stopped by PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface ServiceProcess {
  baseUrl: string;
  apiKey: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServiceProcess(dataDir: string, apiKey: string, extraArgs: readonly string[] = []): Promise<ServiceProcess> {
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir, '--api-key', apiKey, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${stderr}`)), 30_000);
    lines.on('line', (line) => {
      const m = /^TEAM_DATA_BASE_URL=(.+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${stderr}`));
    });
  });
  // A service that never says where it listens is stopped, not left running behind the bench.
  const baseUrl = await url.catch((err: unknown) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw err;
  });
  return {
    baseUrl,
    apiKey,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}
