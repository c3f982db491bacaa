/**
 * `team-data service status|stop`: look at, or stop, the data folder's shared local service. Stop
 * is the way forward when a service of another version runs (a client says so when it attaches):
 * the service finishes its jobs, stops, and the next client starts one of its own version.
 */
import { processAlive, readDiscovery } from '../server/daemon/discovery';
import type { ServiceArgs } from './args';
import { defaultDataDir } from './dataDir';
import { localCall, probe } from './serviceProbe';

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export async function serviceCommand(args: ServiceArgs, io: Io): Promise<number> {
  const dataDir = args.dataDir ?? defaultDataDir(io.env);
  const read = await readDiscovery(dataDir);
  if (read !== undefined && !read.ok) {
    io.err.write(`team-data: ${read.why}\n`);
    return 1;
  }
  const d = read?.discovery;
  const p = d ? await probe(d) : undefined;
  if (args.action === 'status') {
    const status = p?.kind === 'ok' ? p.status : undefined;
    if (args.json) {
      // Never the key: status output ends up in scripts and logs.
      io.out.write(`${JSON.stringify(d && status ? { running: true, dataDir, pid: d.pid, version: d.version, baseUrl: d.baseUrl, startedAt: new Date(d.startedAt).toISOString(), busy: status.busy, clients: status.leases } : { running: false, dataDir })}\n`);
    } else if (!d || !status) {
      io.out.write(`No local service runs on ${dataDir}${d ? ` (pid ${d.pid} does not answer)` : ''}. The next client (a VS Code window, team-data ask or mcp) starts one.\n`);
    } else {
      const clients = status.leases.map((l) => l.client).sort().join(', ') || 'none (it stops soon by itself)';
      io.out.write(`Local service ${d.version}, pid ${d.pid}, at ${d.baseUrl}, since ${new Date(d.startedAt).toLocaleString()}\n`);
      io.out.write(`Data folder: ${dataDir}\nClients: ${clients}\n${status.busy ? 'Working on jobs or files now.\n' : ''}`);
    }
    return 0;
  }
  if (!d || p?.kind !== 'ok') {
    io.out.write(`No local service runs on ${dataDir}.\n`);
    return 0;
  }
  await localCall(d, 'POST', '/restart', { reason: 'team-data service stop' });
  io.err.write(`Asked the local service (pid ${d.pid}) to stop once no job runs; waiting…\n`);
  while (processAlive(d.pid)) {
    if (io.signal.aborted) throw new Error('cancelled');
    await new Promise((r) => setTimeout(r, 100));
  }
  io.out.write(`The local service on ${dataDir} stopped. The next client starts a new one.\n`);
  return 0;
}
