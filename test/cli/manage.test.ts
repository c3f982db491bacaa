/**
 * `team-data sessions list|delete` and `team-data datasets list|delete`: parsed like the other
 * commands, run in-process against the embedded service on a temporary data folder (set up through
 * the real API), with lists on stdout and counts and failures on stderr.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TeamDataClient } from '../../src/api/index';
import { parseCli, UsageError, type SessionsArgs } from '../../src/cli/args';
import { datasetsCommand, sessionsCommand } from '../../src/cli/manage';
import { builtCliEnv, onService, TextSink } from '../helpers/cliIo';
import { stopShared } from '../helpers/sharedCli';

describe('team-data sessions / datasets', function () {
  this.timeout(120_000);
  let dir: string;
  let data: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-manage-'));
    data = join(dir, 'data');
  });
  let cliEnv: NodeJS.ProcessEnv = {};
  before(async () => {
    cliEnv = await builtCliEnv();
  });
  afterEach(async () => {
    await stopShared(data);
    await rm(dir, { recursive: true, force: true });
  });

  async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
    const args = parseCli([...argv, '--data-dir', data], env);
    const out = new TextSink();
    const err = new TextSink();
    const io = { out, err, env: { ...cliEnv, ...env }, signal: new AbortController().signal };
    if (args.command !== 'sessions' && args.command !== 'datasets') return assert.fail(`not a sessions or datasets command: ${argv.join(' ')}`);
    const code = args.command === 'sessions' ? await sessionsCommand(args, io) : await datasetsCommand(args, io);
    return { code, out: out.text, err: err.text };
  }

  /** Sessions titled s0 … s(n-1), created in that order (s0 the oldest), by `user`. */
  async function seedSessions(n: number, user = 'alice'): Promise<string[]> {
    return onService(data, user, async (c) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await c.sessions.create({ title: `s${i}` })).id);
      return ids;
    });
  }

  async function remaining(): Promise<string[]> {
    return onService(data, undefined, async (c) => (await c.sessions.list({ pageSize: 100 })).records.map((s) => s.title));
  }

  it('parses list and delete with the connection options, and reports usage mistakes in one line', () => {
    const bad: Array<[string[], RegExp]> = [
      [['sessions'], /^sessions needs list or delete$/],
      [['datasets', 'show'], /^unknown datasets action "show" \(list or delete\)$/],
      [['sessions', 'delete'], /^sessions delete takes session ids, or --oldest N, or --all --yes/],
      [['sessions', 'delete', 'a', '--oldest', '2'], /one of them/],
      [['sessions', 'delete', '--oldest', '2', '--all', '--yes'], /one of them/],
      [['sessions', 'delete', '--all'], /^sessions delete --all deletes every session with its history: add --yes to confirm$/],
      [['sessions', 'delete', '--oldest', '0'], /^--oldest takes a whole number of sessions from 1 \(got "0"\)$/],
      [['sessions', 'delete', '--oldest', 'ten'], /got "ten"/],
      [['sessions', 'list', 'extra'], /^sessions list takes no arguments \(got extra\)$/],
      [['sessions', 'list', '--oldest', '3'], /^sessions list does not take --oldest$/],
      [['sessions', 'delete', 'a', '--json'], /^sessions delete does not take --json$/],
      [['datasets', 'delete'], /^datasets delete needs the id of at least one dataset/],
      [['datasets', 'delete', '--all', '--yes'], /^datasets delete does not take --all/],
      [['datasets', 'list', '--base-url', 'http://127.0.0.1:9'], /^--base-url needs an API key/],
      [['sessions', 'list', '--api-version', 'v3'], /^--api-version must be v1 or v2/],
      [['sessions', 'list', '--nope'], /nope/],
    ];
    for (const [argv, message] of bad) {
      assert.throws(() => parseCli(argv, {}), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
    }
    const oldest: SessionsArgs = { command: 'sessions', action: 'delete', pick: { oldest: 20 }, apiVersion: 'v2', dataDir: '/d', userId: 'u' };
    assert.deepEqual(parseCli(['sessions', 'delete', '--oldest', '20', '--data-dir', '/d'], { TEAM_DATA_USER_ID: 'u' }), oldest);
    assert.deepEqual(parseCli(['sessions', 'delete', 'a', '--yes'], {}), { command: 'sessions', action: 'delete', pick: { ids: ['a'] }, apiVersion: 'v2' }, '--yes is harmless without --all');
    assert.deepEqual(parseCli(['sessions', 'delete', '--all', '--yes'], {}), { command: 'sessions', action: 'delete', pick: { all: true }, apiVersion: 'v2' });
    assert.deepEqual(parseCli(['datasets', 'delete', 'a', 'b', '--api-version', 'v1'], {}), { command: 'datasets', action: 'delete', ids: ['a', 'b'], apiVersion: 'v1' });
    assert.deepEqual(parseCli(['datasets', 'list', '--json'], { TEAM_DATA_BASE_URL: 'http://127.0.0.1:9', TEAM_DATA_API_KEY: 'k' }), {
      command: 'datasets', action: 'list', json: true, apiVersion: 'v2', baseUrl: 'http://127.0.0.1:9', apiKey: 'k',
    });
  });

  it('sessions list: id, title, questions asked and user, newest first, every user\'s without a user id; --json; a count on stderr', async () => {
    const csv = join(dir, 'sales.csv');
    await writeFile(csv, 'region,revenue\nEurope,100\nAsia,50\n');
    const [asked] = await onService(data, 'alice', async (c: TeamDataClient) => {
      const { id: datasetId } = await c.datasets.create({ name: 'sales', description: '' });
      const { fileKey } = await c.files.upload(csv);
      const src = await c.dataSources.create(datasetId, { fileName: 'sales.csv', fileKey });
      await c.dataSources.waitUntilSynched(datasetId, src.id, { intervalMs: 50 });
      const { id } = await c.sessions.create({ title: 'Revenue questions' });
      for (const question of ['total revenue', 'revenue by region']) await c.jobs.run({ sessionId: id, question, datasetId, datasourceIdList: [src.id] });
      return [id];
    });
    const [mcp] = await seedSessions(1, 'mcp');

    const all = await run(['sessions', 'list']);
    assert.equal(all.code, 0, all.err);
    const lines = all.out.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID\s+TITLE\s+QUESTIONS\s+USER$/);
    assert.match(lines[2] ?? '', new RegExp(`^${mcp}\\s+s0\\s+0\\s+mcp$`), 'newest first');
    assert.match(lines[3] ?? '', new RegExp(`^${asked}\\s+Revenue questions\\s+2\\s+alice$`));
    assert.equal(lines.length, 4);
    assert.equal(all.err, '2 sessions, newest first (the service keeps at most 150)\n');

    const alice = await run(['sessions', 'list', '--json', '--user-id', 'alice']);
    const listed = JSON.parse(alice.out) as Array<{ id: string; title: string; turns: number; userId: string }>;
    assert.deepEqual(listed.map((s) => [s.id, s.title, s.turns, s.userId]), [[asked, 'Revenue questions', 2, 'alice']]);

    const none = await run(['sessions', 'list'], { TEAM_DATA_USER_ID: 'nobody' });
    assert.equal(none.out, '');
    assert.match(none.err, /^0 sessions/);
  });

  it('sessions delete: by id, the N oldest, and all with --yes; a wrong id is reported, the rest still deleted (exit 1)', async () => {
    const ids = await seedSessions(6);
    const byId = await run(['sessions', 'delete', ids[2] as string, 'no-such-session', ids[4] as string]);
    assert.equal(byId.code, 1);
    assert.equal(byId.out, `Deleted session ${ids[2]}  s2\nDeleted session ${ids[4]}  s4\n`);
    assert.match(byId.err, /could not delete session no-such-session: not found/);
    assert.match(byId.err, /Deleted 2 sessions, 1 could not be deleted; 4 left \(the service keeps at most 150\)\n$/);
    assert.deepEqual(await remaining(), ['s5', 's3', 's1', 's0']);

    const oldest = await run(['sessions', 'delete', '--oldest', '2']);
    assert.equal(oldest.code, 0, oldest.err);
    assert.equal(oldest.out, `Deleted session ${ids[0]}  s0\nDeleted session ${ids[1]}  s1\n`, 'the oldest first');
    assert.deepEqual(await remaining(), ['s5', 's3']);

    const more = await run(['sessions', 'delete', '--oldest', '5']);
    assert.equal(more.code, 0, more.err);
    assert.match(more.err, /^Deleted 2 sessions \(there were only 2\); 0 left/);

    await seedSessions(3, 'bob');
    await seedSessions(2, 'carol');
    const everyone = await run(['sessions', 'delete', '--all', '--yes', '--user-id', 'bob']);
    assert.equal(everyone.code, 0, everyone.err);
    assert.equal(everyone.out.split('\n').filter(Boolean).length, 3, 'with a user id, only that user\'s sessions');
    assert.deepEqual(await remaining(), ['s1', 's0']);
    const rest = await run(['sessions', 'delete', '--all', '--yes']);
    assert.equal(rest.code, 0, rest.err);
    assert.deepEqual(await remaining(), []);
  });

  it('datasets list (id, name, number of sources; --json) and datasets delete', async () => {
    const csv = join(dir, 'a.csv');
    await writeFile(csv, 'x,y\n1,2\n');
    const [full, empty] = await onService(data, 'alice', async (c) => {
      const a = await c.datasets.create({ name: 'With files', description: 'two' });
      for (let i = 0; i < 2; i++) {
        const { fileKey } = await c.files.upload(csv);
        await c.dataSources.create(a.id, { fileName: `a${i}.csv`, fileKey });
      }
      const b = await c.datasets.create({ name: 'Empty', description: '' });
      return [a.id, b.id];
    });
    const list = await run(['datasets', 'list']);
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^ID\s+NAME\s+SOURCES\n/);
    assert.match(list.out, new RegExp(`\\n${full}\\s+With files\\s+2\\n`));
    assert.match(list.out, new RegExp(`\\n${empty}\\s+Empty\\s+0\\n`));
    assert.equal(list.err, '2 datasets\n');
    const json = JSON.parse((await run(['datasets', 'list', '--json'])).out) as Array<{ id: string; name: string; description: string; sources: number }>;
    assert.deepEqual(json.find((d) => d.id === full), { id: full, name: 'With files', description: 'two', sources: 2 });

    const del = await run(['datasets', 'delete', full as string, 'no-such-dataset']);
    assert.equal(del.code, 1);
    assert.equal(del.out, `Deleted dataset ${full}  With files\n`);
    assert.match(del.err, /could not delete dataset no-such-dataset: /);
    assert.match(del.err, /Deleted 1 dataset, 1 could not be deleted\n$/);
    const after = JSON.parse((await run(['datasets', 'list', '--json'])).out) as Array<{ id: string }>;
    assert.deepEqual(after.map((d) => d.id), [empty]);
  });
});
