/**
 * A stand-in for the extension host in the supervisor test: starts the local service through the
 * supervisor, prints the service's pid, then waits to be killed (as an editor crash would).
 */
import { TeamDataClient } from '../../../../src/api/index';
import { LocalServiceSupervisor } from '../../../../src/extension/localService/supervisor';

const [cliPath, dataDir] = process.argv.slice(2);
const supervisor = new LocalServiceSupervisor({
  cliPath: cliPath as string,
  dataDir: () => dataDir as string,
  version: 'test',
  log: () => undefined,
  healthCheck: async (e, signal) => {
    await new TeamDataClient({ baseUrl: e.baseUrl, apiKey: e.apiKey, userId: 'host' }).datasets.list({ pageSize: 1 }, { signal });
  },
});
supervisor.ensureStarted().then(
  () => process.stdout.write(`CHILD_PID=${supervisor.pid}\n`),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
setInterval(() => undefined, 60_000);
