/**
 * The explorer route tests' service: a harness reading one folder, a lease on it, and the calls the
 * tests make (open a file of the folder, wait for its read, ask for rows).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExploreOpened, ExplorePage, ExploreStatus } from '../../src/shared/explore';
import { startHarness, type Harness, type WireResponse } from '../helpers/serverHarness';

/** The small sales file the route tests share (values worked out by hand in the tests). */
export const SALES_CSV = [
  'id,name,amount,day,flag',
  '1,Alice,10.5,2024-01-05,true',
  '2,bob,,2024-02-10,false',
  '3,Carol,0,2024-03-15,true',
  '4,dave,20,,false',
  '5,Eve,-4.5,2024-01-31,true',
].join('\n') + '\n';

export interface ExploreKit {
  h: Harness;
  dir: string;
  lease: string;
  call(method: string, path: string, body?: unknown): Promise<WireResponse>;
  ok<T>(method: string, path: string, body?: unknown): Promise<T>;
  open(name: string, extra?: Record<string, unknown>): Promise<ExploreOpened>;
  ready(id: string): Promise<ExploreStatus>;
  ids(id: string, query: unknown): Promise<number[]>;
  stop(): Promise<void>;
}

/** Starts the service over a new temporary folder (`prefix`), leased to the tests' client. */
export async function startExploreKit(prefix: string): Promise<ExploreKit> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const h = await startHarness({ readRoots: [dir], shared: { version: 'test', ttlMs: 60_000, idleMs: 600_000, onIdle: () => undefined } });
  const r = await h.call('POST', '/local/v1/leases', { client: 'test', roots: [dir] });
  const lease = (r.json?.data as { id: string }).id;
  const call = (method: string, path: string, body?: unknown): Promise<WireResponse> => h.call(method, `/local/v1${path}`, body, { 'x-team-data-lease': lease });
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await call(method, path, body);
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    return res.json?.data as T;
  };
  return {
    h, dir, lease, call, ok,
    open: (name, extra = {}) => ok('POST', '/explore/open', { path: join(dir, name), ...extra }),
    async ready(id) {
      for (let i = 0; i < 600; i++) {
        const s = await ok<ExploreStatus>('GET', `/explore/${id}/status`);
        if (s.state !== 'reading') return s;
        await new Promise((res) => setTimeout(res, 50));
      }
      throw new Error('never ready');
    },
    ids: async (id, query) => (await ok<ExplorePage>('POST', `/explore/${id}/rows`, { offset: 0, limit: 100, query })).rows.map((row) => Number(row[0])),
    async stop() {
      await h.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * {@link startExploreKit} for a mocha suite: started before its tests (then `setup` runs), stopped
 * after. The calls may be taken apart at once; `dir`, `h` and `lease` are read once started.
 */
export function useExploreKit(prefix: string, setup: (kit: ExploreKit) => Promise<void> = async () => undefined): ExploreKit {
  let started: ExploreKit | undefined;
  const kit = (): ExploreKit => {
    if (started === undefined) throw new Error('the explore kit is not started yet');
    return started;
  };
  before(async () => {
    started = await startExploreKit(prefix);
    await setup(started);
  });
  after(() => started?.stop());
  return {
    get h() { return kit().h; },
    get dir() { return kit().dir; },
    get lease() { return kit().lease; },
    call: (...a) => kit().call(...a),
    ok: (...a) => kit().ok(...a),
    open: (...a) => kit().open(...a),
    ready: (...a) => kit().ready(...a),
    ids: (...a) => kit().ids(...a),
    stop: () => kit().stop(),
  };
}
