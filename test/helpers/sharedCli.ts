/**
 * The CLI as clients start the shared local service: a real bundle (`out/test/cli.js`, built once
 * per test process) run detached by `serve --shared`. Tests point `team-data` at it through
 * TEAM_DATA_CLI_PATH, keep its idle wait short, and stop what they started by its pid.
 */
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { processAlive, readDiscovery } from '../../src/server/daemon/discovery';

const repo = resolve(__dirname, '..', '..');
export const BUILT_CLI = join(repo, 'out', 'test', 'cli.js');
let building: Promise<string> | undefined;

export function builtCli(): Promise<string> {
  building ??= esbuild.build({
    entryPoints: [join(repo, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['@duckdb/node-api'],
    outfile: BUILT_CLI,
    define: { TEAM_DATA_VERSION: '"test"' },
    logLevel: 'warning',
  }).then(() => BUILT_CLI);
  return building;
}

/** Environment for a `team-data` run whose service must not outlive the test by long. */
export function sharedEnv(cliPath: string, idleMs = 1500): NodeJS.ProcessEnv {
  return { TEAM_DATA_CLI_PATH: cliPath, TEAM_DATA_IDLE_MS: String(idleMs), TEAM_DATA_LEASE_TTL_MS: '3000' };
}

export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (processAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** Stops the shared service of `dataDir`, if one runs (SIGTERM, then SIGKILL after 10 s). */
export async function stopShared(dataDir: string): Promise<void> {
  const read = await readDiscovery(dataDir).catch(() => undefined);
  if (!read?.ok) return;
  const { pid } = read.discovery;
  if (!processAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  if (!(await waitGone(pid, 10_000))) process.kill(pid, 'SIGKILL');
}
