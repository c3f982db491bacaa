/**
 * `team-data ask` without `--session` at the service's session limit: asks reuse one CLI session
 * per dataset (so 200 asks in a row succeed and hold one session), a reused session never reads a
 * question as a follow-up of the previous ask, and at the limit only CLI sessions are ever
 * replaced; otherwise the failure names the command that makes room. `ask()` runs in-process on a
 * temporary data folder, each call starting and stopping the embedded service as the command does.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, TeamDataError, ErrorCode, type Session } from '../../src/api/index';
import { MAX_SESSIONS } from '../../src/shared/domain';
import { parseCli, type AskArgs } from '../../src/cli/args';
import { ask } from '../../src/cli/ask';
import { describeFailure } from '../../src/cli/failure';
import { builtCliEnv, onService as onData, TextSink } from '../helpers/cliIo';
import { stopShared } from '../helpers/sharedCli';

let ENV: NodeJS.ProcessEnv = { TEAM_DATA_USER_ID: 'tester' };

/** The real API on the same data folder, for setting up and checking what `ask` left behind. */
const onService = <T>(dataDir: string, fn: (client: TeamDataClient) => Promise<T>): Promise<T> => onData(dataDir, 'tester', fn);

async function sessionsOf(client: TeamDataClient): Promise<Session[]> {
  const out: Session[] = [];
  for await (const s of client.sessions.iterate({ pageSize: 100 })) out.push(s);
  return out;
}

/** What one `ask` ended with: exit code, stdout, stderr and the session it names. */
interface Asked {
  code: number;
  out: string;
  err: string;
  session: string | undefined;
}

describe('team-data ask: sessions at the limit', function () {
  this.timeout(600_000);
  let dir: string;
  let csv: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-ask-sessions-'));
    csv = join(dir, 'sales.csv');
    await writeFile(csv, 'order_id,region,revenue\n1,Europe,100\n2,Asia,50\n3,Europe,25\n');
  });
  before(async () => {
    ENV = { ...ENV, ...(await builtCliEnv()) };
  });
  afterEach(async () => {
    await stopShared(join(dir, 'data'));
    await rm(dir, { recursive: true, force: true });
  });

  async function runAsk(argv: string[]): Promise<Asked> {
    const args = parseCli(['ask', ...argv, '--data-dir', join(dir, 'data'), '--out', join(dir, 'out'), '--json'], ENV) as AskArgs;
    const out = new TextSink();
    const err = new TextSink();
    const code = await ask(args, { out, err, env: ENV, signal: new AbortController().signal });
    return { code, out: out.text, err: err.text, session: /Job \S+ in session (\S+)/.exec(err.text)?.[1] };
  }

  it('200 asks in a row without --session succeed and keep one session for the dataset', async () => {
    const first = await runAsk([csv, '--question', 'total revenue by region']);
    assert.equal(first.code, 0, first.err);
    const datasetId = await onService(join(dir, 'data'), async (c) => (await c.datasets.list()).records[0]?.id);
    assert.ok(datasetId);
    const used = new Set([first.session]);
    for (let i = 1; i < 200; i++) {
      const r: Asked = await runAsk(['--dataset', datasetId, '--question', i % 2 === 0 ? 'total revenue by region' : 'how many orders are there?'])
        .catch((err: unknown) => assert.fail(`ask ${i + 1} failed: ${describeFailure(err)}`));
      assert.equal(r.code, 0, `ask ${i + 1}: ${r.err}`);
      used.add(r.session);
    }
    assert.deepEqual([...used], [first.session], 'every ask used the one CLI session');
    await onService(join(dir, 'data'), async (c) => {
      const all = await sessionsOf(c);
      assert.deepEqual(all.map((s) => [s.id, s.maxMessagesInContext]), [[first.session, 0]]);
      assert.match(all[0]?.title ?? '', /^CLI: /);
      assert.equal((await c.sessions.history(first.session as string, { pageSize: 1 })).total, 200);
    });
  });

  it('a question asked in the reused session is not read as a follow-up of the previous ask', async () => {
    const first = await runAsk([csv, '--question', 'total revenue by region']);
    assert.equal(first.code, 0, first.err);
    const datasetId = await onService(join(dir, 'data'), async (c) => (await c.datasets.list()).records[0]?.id as string);
    const second = await runAsk(['--dataset', datasetId, '--question', 'and the lowest?']);
    assert.equal(second.session, first.session);
    // In a session that carries context, "and the lowest?" would re-rank the regions; here it has
    // no earlier answer to change, exactly as in a fresh session.
    assert.match(second.out, /there is none in this session to change/);
  });

  it('at the limit, the oldest CLI session of another dataset makes room (and the user is told); other sessions stay', async () => {
    const first = await runAsk([csv, '--question', 'total revenue by region']);
    assert.equal(first.code, 0, first.err);
    // The user's own sessions fill the limit up, next to the CLI session of the first dataset.
    const mine = await onService(join(dir, 'data'), async (c) => {
      const ids: string[] = [];
      for (let i = 0; i < MAX_SESSIONS - 1; i++) ids.push((await c.sessions.create({ title: `mine ${i}` })).id);
      const { id: other } = await c.datasets.create({ name: 'other', description: '' });
      const { fileKey } = await c.files.upload(csv);
      const ds = await c.dataSources.create(other, { fileName: 'sales.csv', fileKey });
      await c.dataSources.waitUntilSynched(other, ds.id, { intervalMs: 50 });
      return { ids, other };
    });
    const r = await runAsk(['--dataset', mine.other, '--question', 'total revenue by region']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /maximum of 150 sessions: deleted the oldest CLI session "CLI: [^"]+" \(/);
    assert.notEqual(r.session, first.session);
    await onService(join(dir, 'data'), async (c) => {
      const all = await sessionsOf(c);
      assert.equal(all.length, MAX_SESSIONS);
      assert.ok(!all.some((s) => s.id === first.session), 'the old CLI session made room');
      assert.deepEqual(all.filter((s) => s.title.startsWith('mine ')).map((s) => s.id).sort(), [...mine.ids].sort(), 'the user\'s sessions all stay');
      assert.equal(all.find((s) => s.id === r.session)?.title, 'CLI: other');
    });
  });

  it('at the limit without a CLI session to replace, ask fails naming the command that makes room, and deletes nothing', async () => {
    const mine = await onService(join(dir, 'data'), async (c) => {
      const ids: string[] = [];
      for (let i = 0; i < MAX_SESSIONS; i++) ids.push((await c.sessions.create({ title: `mine ${i}` })).id);
      return ids;
    });
    const failure = await runAsk([csv, '--question', 'total revenue by region']).then(
      () => assert.fail('ask should fail at the limit'),
      (err: unknown) => err,
    );
    assert.ok(failure instanceof TeamDataError && failure.code === ErrorCode.SESSION_LIMIT, String(failure));
    const line = describeFailure(failure);
    assert.match(line, /^session limit reached: delete sessions first/);
    assert.match(line, /team-data sessions delete --oldest 20/);
    assert.match(line, /team-data sessions list/);
    assert.ok(!line.includes('\n'), 'one line');
    await onService(join(dir, 'data'), async (c) => assert.deepEqual((await sessionsOf(c)).map((s) => s.id).sort(), [...mine].sort()));
  });
});
