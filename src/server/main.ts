/**
 * Runnable entry of the local service, for running it as a child process (the extension does, so
 * a heavy query never blocks the editor). Prints one JSON line `{"baseUrl":...,"port":...}` on
 * stdout once listening (plus `apiKey` when it generated one); logs go to stderr; SIGINT/SIGTERM
 * stop it cleanly.
 *
 * Usage: main [--data-dir DIR] [--port N] [--host H] [--api-key KEY]
 * Env: TEAM_DATA_DATA_DIR, TEAM_DATA_PORT, TEAM_DATA_API_KEY (preferred over --api-key: argv is
 * visible to other local users), TEAM_DATA_MAX_UPLOAD_BYTES, TEAM_DATA_MEMORY_LIMIT (`2GB`, `25%`),
 * TEAM_DATA_THREADS, TEAM_DATA_ALLOW_PRIVATE_NETWORKS (url sources on private networks), TEAM_DATA_DEBUG.
 */
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startLocalService } from './localService';
import { allowPrivateNetworksFromEnv, duckdbLimitsFromEnv, exitIfStuck } from './serviceEnv';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function intOrUndefined(v: string | undefined, what: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`${what}: expected a non-negative integer`);
  return Number(v);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const env = process.env;
  const dataDir = arg(argv, '--data-dir') ?? env['TEAM_DATA_DATA_DIR'] ?? join(homedir(), '.team-data', 'local');
  const given = env['TEAM_DATA_API_KEY'] ?? arg(argv, '--api-key');
  const apiKey = given ?? randomBytes(24).toString('base64url');
  const port = intOrUndefined(arg(argv, '--port') ?? env['TEAM_DATA_PORT'], 'port');
  const maxUploadBytes = intOrUndefined(env['TEAM_DATA_MAX_UPLOAD_BYTES'], 'TEAM_DATA_MAX_UPLOAD_BYTES');
  const debug = env['TEAM_DATA_DEBUG'] !== undefined && env['TEAM_DATA_DEBUG'] !== '';
  const host = arg(argv, '--host');
  const service = await startLocalService({
    dataDir,
    apiKey,
    ...(host !== undefined ? { host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(maxUploadBytes !== undefined ? { maxUploadBytes } : {}),
    duckdb: duckdbLimitsFromEnv(env),
    allowPrivateNetworks: allowPrivateNetworksFromEnv(env),
    logger: (level, message) => {
      if (level !== 'debug' || debug) process.stderr.write(`[${level}] ${message}\n`);
    },
  });
  const line: Record<string, string | number> = { baseUrl: service.baseUrl, port: service.port };
  if (given === undefined) line['apiKey'] = apiKey;
  process.stdout.write(`${JSON.stringify(line)}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    exitIfStuck((l) => process.stderr.write(l));
    service.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`[error] shutdown failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`[error] the local service could not start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
