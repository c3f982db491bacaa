/**
 * The v2 client's multipart upload against the real local service, through a real forward proxy
 * on 127.0.0.1 that watches and breaks the part PUTs: parts go three at a time, a part whose
 * connection drops mid-body (or that gets a 503) is sent again and the file arrives intact, a
 * cancel aborts the PUTs in flight and leaves nothing on the service.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProxyAgent } from 'undici';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { ForwardProxy } from '../helpers/forwardProxy';
import { eventually, startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

const PART = 64 * 1024;
/** About 1.6 MB of invented rows: 26 parts of 64 KiB, the last one shorter. */
const CSV = `id,city,amount\n${Array.from({ length: 90_000 }, (_, i) => `${i},city-${i % 37},${(i * 7) % 1000}`).join('\n')}\n`;
const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

async function filesIn(dir: string): Promise<string[]> {
  return readdir(dir, { recursive: true }).catch(() => [] as string[]);
}

describe('client: v2 multipart upload against the local service', function () {
  this.timeout(60_000);
  let h: Harness;
  let proxy: ForwardProxy;
  let agent: ProxyAgent;
  let client: TeamDataClient;
  let dir: string;
  let path: string;

  before(async () => {
    h = await startHarness({ multipartPartBytes: PART, multipartUrlTtlMs: 3000 });
    dir = await mkdtemp(join(tmpdir(), 'client-multipart-'));
    path = join(dir, 'orders.csv');
    await writeFile(path, CSV);
  });
  after(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    proxy = await ForwardProxy.start();
    agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, apiVersion: 'v2', dispatcher: agent, retry: { baseDelayMs: 20 } });
  });
  afterEach(async () => {
    await agent.close();
    await proxy.close();
  });

  /** The bytes the service serves back for a data source made from `fileKey`. */
  async function storedBytes(fileKey: string): Promise<Buffer> {
    const { id: datasetId } = await client.datasets.create({ name: 'parts', description: '' });
    const src = await client.dataSources.create(datasetId, { fileName: 'orders.csv', fileKey });
    await client.dataSources.waitUntilSynched(datasetId, src.id, { intervalMs: 50 });
    const link = await client.dataSources.presign(datasetId, src.id);
    return Buffer.from(await (await fetch(link.url)).arrayBuffer());
  }

  it('sends the parts three at a time, with progress up to the file size, and the file arrives intact', async () => {
    proxy.barrier = 3;
    const progress: number[] = [];
    const { fileKey } = await client.files.upload(path, { onProgress: (sent, total) => {
      assert.equal(total, Buffer.byteLength(CSV));
      progress.push(sent);
    } });
    const parts = Math.ceil(Buffer.byteLength(CSV) / PART);
    assert.equal(proxy.attempts.size, parts);
    assert.equal(proxy.maxInFlight, 3, 'three parts in flight at once, never more');
    assert.deepEqual(proxy.seen.filter((r) => r.startsWith('POST')), ['POST /v2/team/file/init-multipart-upload', 'POST /v2/team/file/complete-multipart-upload']);
    for (let i = 1; i < progress.length; i++) assert.ok((progress[i] as number) > (progress[i - 1] as number), 'monotone');
    assert.equal(progress.at(-1), Buffer.byteLength(CSV));
    assert.equal(sha256(await storedBytes(fileKey)), sha256(CSV));
  });

  it('sends a part again after its connection dropped mid-body, and another after a 503', async () => {
    proxy.fault = (part, attempt) => (attempt > 1 ? 'forward' : part === 2 ? 'drop-mid-body' : part === 5 ? 'answer-503' : 'forward');
    const warnings: string[] = [];
    const retrying = new TeamDataClient({
      baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, apiVersion: 'v2', dispatcher: agent, retry: { baseDelayMs: 20 },
      logger: (level, line) => level === 'warn' && warnings.push(line),
    });
    const progress: number[] = [];
    const { fileKey } = await retrying.files.upload(path, { onProgress: (sent) => progress.push(sent) });
    assert.equal(proxy.attempts.get(2), 2);
    assert.equal(proxy.attempts.get(5), 2);
    assert.ok([...proxy.attempts].every(([n, tries]) => tries === (n === 2 || n === 5 ? 2 : 1)));
    assert.equal(warnings.filter((w) => /PUT part (2|5) of \d+: .*retrying/.test(w)).length, 2, warnings.join('\n'));
    for (let i = 1; i < progress.length; i++) assert.ok((progress[i] as number) > (progress[i - 1] as number), 'monotone across the retries');
    assert.equal(sha256(await storedBytes(fileKey)), sha256(CSV));
  });

  it('a cancel aborts the PUTs in flight, completes nothing, and the service keeps nothing', async () => {
    const uploadsBefore = await filesIn(join(h.dataDir, 'uploads'));
    // The first parts go through; from part 4 on the proxy holds them, so the cancel finds PUTs in flight.
    proxy.fault = (part) => (part <= 3 ? 'forward' : 'hold');
    const ac = new AbortController();
    const pending = client.files.upload(path, { signal: ac.signal });
    await eventually(async () => (proxy.attempts.size >= 6 && proxy.inFlight === 3 ? true : undefined), 'three held PUTs');
    ac.abort();
    const err = await pending.then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof TeamDataError && err.code === 'ABORTED', String(err));
    await eventually(async () => (proxy.inFlight === 0 ? true : undefined), 'the held PUTs to be closed');
    assert.equal(proxy.abortedPuts, 3);
    assert.equal(proxy.attempts.size, 6, 'no part started after the cancel');
    assert.ok(!proxy.seen.includes('POST /v2/team/file/complete-multipart-upload'));
    assert.deepEqual(await filesIn(join(h.dataDir, 'uploads')), uploadsBefore);
    // The parts that had arrived go once their URLs expire: nobody can complete the upload.
    await eventually(async () => ((await filesIn(join(h.dataDir, 'multipart'))).length === 0 ? true : undefined), 'the abandoned upload to be removed', 200, 50);
  });

  it('a cancel mid-body, without a proxy in between, leaves no partial part and no file', async () => {
    const direct = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, apiVersion: 'v2' });
    const uploadsBefore = await filesIn(join(h.dataDir, 'uploads'));
    const ac = new AbortController();
    let atCancel = 0;
    const err = await direct.files.upload(path, { signal: ac.signal, onProgress: (sent) => {
      if (sent > 4 * PART && atCancel === 0) {
        atCancel = sent;
        ac.abort();
      }
    } }).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof TeamDataError && err.code === 'ABORTED', String(err));
    assert.ok(atCancel > 0 && atCancel < Buffer.byteLength(CSV));
    assert.deepEqual(await filesIn(join(h.dataDir, 'uploads')), uploadsBefore);
    // No partial part is kept; whole parts stay until the URLs expire, then the upload goes.
    await eventually(async () => ((await filesIn(join(h.dataDir, 'multipart'))).some((f) => f.endsWith('.tmp')) ? undefined : true), 'no partial part');
    await eventually(async () => ((await filesIn(join(h.dataDir, 'multipart'))).length === 0 ? true : undefined), 'the abandoned upload to be removed', 200, 50);
  });
});
