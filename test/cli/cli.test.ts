/**
 * The `team-data` command as a user runs it: a real process, real files, the embedded service.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { BUILT_CLI, builtCli, sharedEnv, stopShared } from '../helpers/sharedCli';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.ts');
const TSX = require.resolve('tsx/cjs');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, ['-r', TSX, MAIN, ...args], {
    cwd, env: { ...process.env, TEAM_DATA_BASE_URL: '', TEAM_DATA_API_KEY: '', TEAM_DATA_API_VERSION: '', ...sharedEnv(BUILT_CLI), ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('team-data CLI', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    await builtCli();
    dir = await mkdtemp(join(tmpdir(), 'cli-'));
    await writeFile(join(dir, 'sales.csv'), 'order_id,region,revenue\n1,Europe,100\n2,Asia,50\n3,Europe,25\n');
  });
  after(async () => {
    await stopShared(join(dir, 'data'));
    await rm(dir, { recursive: true, force: true });
  });

  const versions: Array<[string, string[], NodeJS.ProcessEnv, 'job_id' | 'jobId']> = [
    ['v2 by default', [], {}, 'job_id'],
    ['--api-version v1', ['--api-version', 'v1'], {}, 'jobId'],
    ['TEAM_DATA_API_VERSION=v1', [], { TEAM_DATA_API_VERSION: 'v1' }, 'jobId'],
  ];
  for (const [how, flags, env, idField] of versions) it(`ask --json prints the non-stream shape for a local file on the embedded service (${how})`, async () => {
    const r = await cli(['ask', 'sales.csv', '--question', 'Give me an overview of this data', '--json', '--data-dir', join(dir, 'data'), ...flags], dir, env);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as Record<string, unknown> & { blocks: Array<{ type: string; stage: string }> };
    assert.deepEqual(Object.keys(body), [idField, 'blocks']);
    assert.ok(String(body[idField]).length > 0);
    const types = body.blocks.map((b) => b.type);
    for (const t of ['CODE', 'TABLE', 'MESSAGE', 'QUESTIONS', 'SOURCES']) assert.ok(types.includes(t), `missing ${t} in ${types.join()}`);
    assert.match(r.stderr, /Uploaded sales\.csv/);
    assert.match(r.stderr, /Ready: sales\.csv \(synched\)/);
  });

  it('ask streams readable text: steps on stderr, answer and an aligned table on stdout', async () => {
    const r = await cli(['ask', 'sales.csv', '--question', 'overview', '--data-dir', join(dir, 'data'), '--out', 'out'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /✓ /, 'finished steps are listed');
    // Step titles read as text: "Read the question as: …" names columns without backticks.
    assert.doesNotMatch(r.stderr, /`/, r.stderr);
    // The SQL is printed as indented code, not as a Markdown fence.
    assert.match(r.stdout, /^    -- Runs in DuckDB from the folder that holds/m);
    assert.doesNotMatch(r.stdout, /```/);
    assert.match(r.stdout, /^Table: .*\.csv \(\d+ rows/m);
    assert.match(r.stdout, /─{3,}/, 'tables are drawn as aligned text');
    assert.match(r.stdout, /Sources: sales\.csv/);
    assert.ok((await readdir(join(dir, 'out'))).some((f) => f.endsWith('.csv')), 'the table file is saved');
  });

  it('ask prints step titles as they read: "Read the question as: …" without the backticks around names', async () => {
    const r = await cli(['ask', 'sales.csv', '--question', 'total revenue by region', '--data-dir', join(dir, 'data'), '--out', 'out-steps'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^✓ Read the question as: .*revenue.*region/m, r.stderr);
    assert.doesNotMatch(r.stderr, /`/, r.stderr);
  });

  it('ends quietly with 0 when the reader of stdout goes away early (| head)', async () => {
    const child = spawn(process.execPath, ['-r', TSX, MAIN, 'ask', 'sales.csv', '--question', 'overview', '--data-dir', join(dir, 'data'), '--out', 'out-head'], {
      cwd: dir, env: { ...process.env, TEAM_DATA_BASE_URL: '', TEAM_DATA_API_KEY: '', ...sharedEnv(BUILT_CLI) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Like `head -1`: read the first chunk of the answer, then close the pipe.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|\n\s+at |cancelled/, stderr);
  });

  it('reports user mistakes in one line with exit code 2, failures with exit code 1', async () => {
    const noQuestion = await cli(['ask', 'sales.csv'], dir);
    assert.equal(noQuestion.code, 2);
    assert.match(noQuestion.stderr, /^team-data: ask needs --question/);
    const missing = await cli(['ask', 'nope.csv', '--question', 'x'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.csv: no such file/);
    await writeFile(join(dir, 'tool.exe'), 'MZ');
    const exe = await cli(['ask', 'tool.exe', '--question', 'x'], dir);
    const version = await cli(['ask', 'sales.csv', '--question', 'x', '--api-version', 'v3'], dir);
    assert.equal(version.code, 2);
    assert.match(version.stderr, /^team-data: --api-version must be v1 or v2 \(got "v3"\)/);
    assert.match(exe.stderr, /unsupported file type "\.exe"/);
    const unreachable = await cli(['ask', '--question', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'secret-key-123'], dir);
    assert.equal(unreachable.code, 1);
    assert.equal(unreachable.stderr.trim().split('\n').length, 1, unreachable.stderr);
    assert.ok(!unreachable.stderr.includes('secret-key-123'));
    assert.ok(!/\n\s+at /.test(unreachable.stderr), 'no stack trace');
  });

  it('sessions and datasets list and delete through the real command; usage mistakes exit with 2', async () => {
    const data = join(dir, 'manage-data');
    const asked = await cli(['ask', 'sales.csv', '--question', 'total revenue by region', '--data-dir', data, '--out', 'out-manage'], dir);
    assert.equal(asked.code, 0, asked.stderr);
    const session = /in session (\S+)/.exec(asked.stderr)?.[1] as string;
    const list = await cli(['sessions', 'list', '--data-dir', data], dir);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${session}\\s+CLI: \\S+\\s+1\\s`, 'm'));
    assert.match(list.stderr, /^1 session, newest first/m);
    const datasets = JSON.parse((await cli(['datasets', 'list', '--json', '--data-dir', data], dir)).stdout) as Array<{ id: string; sources: number }>;
    assert.equal(datasets.length, 1);
    assert.equal(datasets[0]?.sources, 1);
    const noYes = await cli(['sessions', 'delete', '--all', '--data-dir', data], dir);
    assert.equal(noYes.code, 2);
    assert.match(noYes.stderr, /^team-data: sessions delete --all deletes every session with its history: add --yes to confirm\nRun "team-data sessions --help"/);
    const gone = await cli(['sessions', 'delete', '--oldest', '1', '--data-dir', data], dir);
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(gone.stdout, new RegExp(`^Deleted session ${session}  CLI: `));
    const dropped = await cli(['datasets', 'delete', datasets[0]?.id as string, '--data-dir', data], dir);
    assert.equal(dropped.code, 0, dropped.stderr);
    assert.match(dropped.stderr, /Deleted 1 dataset\n/);
    const help = await cli(['--help'], dir);
    assert.match(help.stdout, /team-data sessions delete ID \[ID \.\.\.\] \| --oldest N \| --all --yes/);
  });

  it('serve prints its base URL and key, answers the real client, reads files in place only under --read-root, and stops cleanly on SIGTERM', async () => {
    const root = join(dir, 'read-root');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'inside.csv'), 'a,b\n1,2\n');
    await writeFile(join(dir, 'outside.csv'), 'a,b\n1,2\n');
    const child = spawn(process.execPath, ['-r', TSX, MAIN, 'serve', '--port', '0', '--data-dir', join(dir, 'served'), '--read-root', root], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout });
      const values: Record<string, string> = {};
      for await (const line of lines) {
        const m = /^(TEAM_DATA_[A-Z_]+)=(.*)$/.exec(line);
        if (m) values[m[1]!] = m[2]!;
        if (values['TEAM_DATA_BASE_URL'] && values['TEAM_DATA_API_KEY']) break;
      }
      assert.match(values['TEAM_DATA_BASE_URL'] ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new TeamDataClient({ baseUrl: values['TEAM_DATA_BASE_URL']!, apiKey: values['TEAM_DATA_API_KEY']!, userId: 'u' });
      await client.sessions.create({ title: 'from the CLI test' });
      assert.equal((await client.sessions.list()).total, 1);
      const inside = await client.dataSources.createWithoutDataset({ fileName: 'inside.csv', path: join(root, 'inside.csv') });
      assert.equal((await client.dataSources.waitUntilSynched(inside.datasetId, inside.id, { intervalMs: 50 })).status, 'synched');
      await assert.rejects(client.dataSources.createWithoutDataset({ fileName: 'outside.csv', path: join(dir, 'outside.csv') }), (e: unknown) => e instanceof TeamDataError && e.httpStatus === 400 && /outside the folders this service may read/.test(e.message));
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
