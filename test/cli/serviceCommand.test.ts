/**
 * `team-data service status|stop` on a real shared service: status names the service and its
 * clients (never the key), stop waits until the service has stopped, and status then says none runs.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli, type ServiceArgs } from '../../src/cli/args';
import { attachOrStart } from '../../src/cli/serviceAttach';
import { serviceCommand } from '../../src/cli/serviceCommand';
import { processAlive } from '../../src/server/daemon/discovery';
import { TextSink } from '../helpers/cliIo';
import { builtCli, sharedEnv, stopShared } from '../helpers/sharedCli';

describe('team-data service status|stop', function () {
  this.timeout(60_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-service-'));
  });
  after(async () => {
    await stopShared(join(dir, 'data'));
    await rm(dir, { recursive: true, force: true });
  });

  async function run(argv: string[]): Promise<{ code: number; out: string }> {
    const args = parseCli([...argv, '--data-dir', join(dir, 'data')], {}) as ServiceArgs;
    const out = new TextSink();
    const code = await serviceCommand(args, { out, err: new TextSink(), env: {}, signal: new AbortController().signal });
    return { code, out: out.text };
  }

  it('status shows the service and its clients without the key; stop waits for it to end', async () => {
    const cliPath = await builtCli();
    const a = await attachOrStart({ dataDir: join(dir, 'data'), cliPath, version: 'test', client: 'vscode', env: { ...process.env, ...sharedEnv(cliPath, 60_000) } });
    const status = await run(['service', 'status']);
    assert.equal(status.code, 0);
    assert.match(status.out, new RegExp(`pid ${a.discovery.pid}`));
    assert.match(status.out, /Clients: vscode/);
    const json = await run(['service', 'status', '--json']);
    assert.ok(!json.out.includes(a.discovery.apiKey), 'the key is never printed');
    assert.equal((JSON.parse(json.out) as { running: boolean }).running, true);
    // A client still holds it: stop must not wait for the idle time (60 s here).
    const stop = await run(['service', 'stop']);
    assert.equal(stop.code, 0);
    assert.equal(processAlive(a.discovery.pid), false);
    a.lease.abandon();
    assert.match((await run(['service', 'status'])).out, /No local service runs/);
    assert.throws(() => parseCli(['service', 'restart'], {}), /service takes status or stop/);
  });
});
