/**
 * `team-data serve`: runs the embedded local service in the foreground until SIGINT/SIGTERM.
 * Prints the base URL and key on stdout (one `KEY=value` per line, easy to eval or parse).
 */
import { startLocalService } from '../server/localService';
import { allowPrivateNetworksFromEnv, duckdbLimitsFromEnv, exitIfStuck } from '../server/serviceEnv';
import type { ServeArgs } from './args';
import { defaultDataDir, randomApiKey } from './dataDir';
import { serveShared } from './serveShared';
import { CANNOT_START, startFailureText } from '../server/daemon/startFailure';

export async function serve(args: ServeArgs, env: NodeJS.ProcessEnv): Promise<number> {
  if (args.shared) return serveShared(args, env);
  const dataDir = args.dataDir ?? defaultDataDir(env);
  const apiKey = args.apiKey ?? randomApiKey();
  // Milliseconds since the process started (Node's clock origin): the cost of loading the bundle.
  const loadedMs = Math.round(performance.now());
  // A failed start exits at once: a caller's open pipe (the editor's lifeline) must not keep it alive.
  const service = await startLocalService({
    dataDir,
    apiKey,
    host: args.host,
    port: args.port,
    duckdb: duckdbLimitsFromEnv(env),
    allowPrivateNetworks: allowPrivateNetworksFromEnv(env),
    readRoots: args.readRoots,
    readHardLinks: args.readHardLinks,
    ...(args.apiVersions ? { apiVersions: args.apiVersions } : {}),
    logger: (level, message) => {
      if (level !== 'debug' || env['TEAM_DATA_DEBUG']) process.stderr.write(`[${level}] ${message}\n`);
    },
  }).catch((err: unknown) => {
    process.stderr.write(`${CANNOT_START}${startFailureText(err, dataDir)}\n`);
    process.exit(1);
  });
  process.stdout.write(`TEAM_DATA_BASE_URL=${service.baseUrl}\nTEAM_DATA_API_KEY=${service.apiKey}\n`);
  process.stderr.write(`Local service listening on ${service.baseUrl} (data in ${dataDir}; ${Math.round(performance.now())} ms after the process started, ${loadedMs} ms of them loading the code). Ctrl+C stops it.\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stderr.write('Stopping…\n');
  exitIfStuck((l) => process.stderr.write(l));
  await service.close();
  return 0;
}
