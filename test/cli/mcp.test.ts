/**
 * `team-data mcp` driven by the MCP SDK's own client over stdio, as Claude Desktop or VS Code
 * would start it: the tools are listed with input schemas, analyzing a real file gives the right
 * numbers, a follow-up keeps the session, and mistakes come back as tool errors that say what is
 * wrong (missing file, unsupported type, a question the data cannot answer, an unknown dataset).
 */
import { strict as assert } from 'node:assert';
import { BUILT_CLI, builtCli, sharedEnv, stopShared, waitGone } from '../helpers/sharedCli';
import { readDiscovery } from '../../src/server/daemon/discovery';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, ListRootsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TeamDataClient } from '../../src/api/index';
import { createMcpServer } from '../../src/cli/mcp';
import { MAX_SESSIONS } from '../../src/shared/domain';
import { attachOrStart } from '../../src/cli/serviceAttach';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
const TSX = require.resolve('tsx/cjs');

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('team-data mcp (MCP SDK client over stdio)', function () {
  this.timeout(120_000);
  let dir: string;
  let client: Client;
  let stderr = '';
  let outside: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'team-data-mcp-'));
    copyFileSync(join(ROOT, 'samples', 'sales.csv'), join(dir, 'sales.csv'));
    writeFileSync(join(dir, 'notes.exe'), 'MZ');
    // Files outside the folder the server starts in, and links from inside it to them.
    outside = mkdtempSync(join(tmpdir(), 'team-data-mcp-outside-'));
    writeFileSync(join(outside, 'secret.csv'), 'who,amount\nme,42\n');
    symlinkSync(join(outside, 'secret.csv'), join(dir, 'link.csv'));
    symlinkSync(outside, join(dir, 'outdir'));
    // HOME is elsewhere: the home folder is never read as the folder started in.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', TSX, MAIN, 'mcp', '--data-dir', join(dir, 'data')],
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', HOME: outside, ...sharedEnv(await builtCli()) } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    client = new Client({ name: 'team-data-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    await stopShared(join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  it('lists the three tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['teamData_analyzeFiles', 'teamData_askDataset', 'teamData_listDatasets']);
    const analyze = tools.find((t) => t.name === 'teamData_analyzeFiles');
    assert.deepEqual(analyze?.inputSchema.required?.sort(), ['paths', 'question']);
    assert.match(analyze?.description ?? '', /on this machine/);
    assert.match(stderr, /serving .* on the embedded local service/);
  });

  it('analyzes a local file with the right numbers, and a follow-up keeps the session', async () => {
    const r = await call('teamData_analyzeFiles', { paths: ['sales.csv'], question: 'total revenue by region' });
    const text = textOf(r);
    assert.equal(r.isError, undefined, text);
    // The sample's totals (samples/sales.csv, checked with DuckDB by the engine's accuracy suite).
    assert.match(text, /Europe.*32,?985\.92/);
    assert.match(text, /\| region \| total_revenue \|/);
    assert.match(text, /```sql[\s\S]*GROUP BY/);
    const session = /in session (\S+?)[,.]/.exec(text)?.[1];
    assert.ok(session, text);

    const again = await call('teamData_askDataset', { dataset: 'team-data-mcp-' + dir.split('team-data-mcp-')[1], question: 'How many orders are there?' });
    const againText = textOf(again);
    assert.equal(again.isError, undefined, againText);
    assert.ok(againText.includes(`in session ${session}`), 'the same session');
  });

  it('lists the dataset with its file', async () => {
    const text = textOf(await call('teamData_listDatasets', {}));
    assert.match(text, /sales\.csv \(synched\)/);
  });

  it('keeps working after the shared service it uses is killed: the next call attaches to a new one', async () => {
    const before = await readDiscovery(join(dir, 'data'));
    assert.ok(before?.ok);
    process.kill(before.discovery.pid, 'SIGKILL');
    await waitGone(before.discovery.pid, 5000);
    const listed = await call('teamData_listDatasets', {});
    assert.notEqual(listed.isError, true, textOf(listed));
    assert.match(textOf(listed), /sales\.csv/);
    const after = await readDiscovery(join(dir, 'data'));
    assert.ok(after?.ok && after.discovery.pid !== before.discovery.pid);
  });

  it('reports mistakes as tool errors with clear messages', async () => {
    const missing = await call('teamData_analyzeFiles', { paths: ['nope.csv'], question: 'total revenue' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /nope\.csv: no such file/);
    const exe = await call('teamData_analyzeFiles', { paths: ['notes.exe'], question: 'what is in it' });
    assert.equal(exe.isError, true);
    assert.match(textOf(exe), /notes\.exe: files of type "\.exe" cannot be analyzed/);
    const unknown = await call('teamData_askDataset', { dataset: 'no such dataset', question: 'total revenue' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /no dataset is called/);
    const mars = await call('teamData_analyzeFiles', { paths: ['sales.csv'], question: 'what will the weather be on mars tomorrow' });
    assert.equal(mars.isError, true);
    assert.match(textOf(mars), /could not be answered from the data/);
  });

  it('reads only inside the folder it was started in (a client without roots): absolute paths, ../ and links out of it get one refusal', async () => {
    const out = basename(outside);
    const paths = [
      join(outside, 'secret.csv'), `../${out}/secret.csv`, 'link.csv', 'outdir/secret.csv', '/etc/passwd',
      // Missing files outside get the same answer: the refusal tells nothing about what is there.
      join(outside, 'missing.csv'), `../${out}/missing.csv`, 'outdir/missing.csv',
    ];
    let readOutside = 0;
    for (const p of paths) {
      const r = await call('teamData_analyzeFiles', { paths: [p], question: 'total amount' });
      const text = textOf(r);
      if (r.isError !== true) readOutside++;
      assert.equal(r.isError, true, `${p}: ${text}`);
      assert.ok(text.startsWith(`Could not analyze the files: ${p}: outside the folders this server may read (`), `${p}: ${text}`);
    }
    console.log(`      MCP paths: ${paths.length} tried / ${readOutside} read outside (target 0)`);
  });

  it('answers a message over its 10 MB limit with a JSON-RPC error and keeps serving', async () => {
    const huge = 'x'.repeat(11 * 1024 * 1024);
    await assert.rejects(client.callTool({ name: 'teamData_askDataset', arguments: { dataset: 'any', question: huge } }), (e: unknown) => {
      assert.ok(e instanceof McpError, String(e));
      assert.equal(e.code, ErrorCode.InvalidRequest);
      assert.match(e.message, /message too large: 12 MB is over this server's limit of 10 MB per message/);
      return true;
    });
    // Still there, and still answering.
    const { tools } = await client.listTools();
    assert.equal(tools.length, 3);
    assert.match(textOf(await call('teamData_listDatasets', {})), /sales\.csv/);
    assert.match(stderr, /refused a \d+-byte message \(request \d+\): over the 10485760-byte limit; still serving/);
  });
});

describe('team-data mcp with the client\'s roots and --allow-dir', function () {
  this.timeout(120_000);
  let dir: string;
  let client: Client;
  let roots: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'team-data-mcp-roots-'));
    for (const d of ['started', 'root', 'allowed']) mkdirSync(join(dir, d));
    for (const d of ['started', 'root', 'allowed']) copyFileSync(join(ROOT, 'samples', 'sales.csv'), join(dir, d, 'sales.csv'));
    roots = [join(dir, 'root')];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', TSX, MAIN, 'mcp', '--data-dir', join(dir, 'data'), '--allow-dir', join(dir, 'allowed')],
      cwd: join(dir, 'started'),
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...sharedEnv(await builtCli()) } as Record<string, string>,
      stderr: 'pipe',
    });
    client = new Client({ name: 'team-data-test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: basename(r) })) }));
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    await stopShared(join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
  });

  async function analyze(path: string): Promise<{ ok: boolean; text: string }> {
    const r = (await client.callTool({ name: 'teamData_analyzeFiles', arguments: { paths: [path], question: 'total revenue by region' } })) as CallToolResult;
    return { ok: r.isError !== true, text: textOf(r) };
  }

  it('reads inside the client\'s roots (relative paths from the first) and the --allow-dir folders, not the folder it was started in', async () => {
    const inRoot = await analyze('sales.csv');
    assert.ok(inRoot.ok, inRoot.text);
    assert.match(inRoot.text, /Europe.*32,?985\.92/);
    const allowed = await analyze(join(dir, 'allowed', 'sales.csv'));
    assert.ok(allowed.ok, allowed.text);
    const started = await analyze(join(dir, 'started', 'sales.csv'));
    assert.ok(!started.ok && /outside the folders this server may read/.test(started.text), started.text);
  });

  it('follows the client when its roots change (notifications/roots/list_changed)', async () => {
    roots = [join(dir, 'started')];
    await client.sendRootsListChanged();
    // The notification and the next call travel in order on the same pipe.
    const nowOutside = await analyze(join(dir, 'root', 'sales.csv'));
    assert.ok(!nowOutside.ok && /outside the folders this server may read/.test(nowOutside.text), nowOutside.text);
    const nowInside = await analyze('sales.csv');
    assert.ok(nowInside.ok, nowInside.text);
  });
});

describe('team-data mcp started in / or the home folder by a client without roots', function () {
  let dir: string;
  let home: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'team-data-mcp-broad-'));
    home = join(dir, 'home', 'me');
    mkdirSync(join(home, 'project'), { recursive: true });
    mkdirSync(join(dir, 'allowed'));
    writeFileSync(join(home, 'secret.csv'), 'who,amount\nme,42\n');
    symlinkSync('/', join(dir, 'top'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** What the analyze tool says of `path` from a server started in `root` (no service is reached: the path check comes first). */
  async function analyze(root: string, path: string, allowDirs: string[] = []): Promise<{ text: string; notes: string[] }> {
    const notes: string[] = [];
    const server = createMcpServer(new TeamDataClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', userId: 'u' }), { local: true, root, allowDirs, home, note: (l) => notes.push(l) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'team-data-test', version: '1.0.0' });
    try {
      await client.connect(clientSide);
      const r = (await client.callTool({ name: 'teamData_analyzeFiles', arguments: { paths: [path], question: 'total amount' } })) as CallToolResult;
      assert.equal(r.isError, true, textOf(r));
      return { text: textOf(r), notes };
    } finally {
      await client.close();
    }
  }

  it('refuses every path, saying to pass --allow-dir, when started in /, in home, above home or through a link to /', async () => {
    for (const root of ['/', home, join(dir, 'home'), dir, join(dir, 'top')]) {
      for (const path of [join(home, 'secret.csv'), 'secret.csv', '/etc/passwd']) {
        const { text, notes } = await analyze(root, path);
        assert.ok(text.startsWith(`Could not analyze the files: ${path}: no folder may be read: the MCP client sent no roots, and the folder this server was started in is not read: ${root} `), `${root}, ${path}: ${text}`);
        assert.match(text, /Start the server with --allow-dir DIR \(in the client's "args"\) for each folder of data, or use a client that sends its workspace folders as roots$/);
        assert.match(notes.join('\n'), /start it with --allow-dir DIR/);
      }
    }
  });

  it('reads only the --allow-dir folders then, and a folder below home as before', async () => {
    const allowed = await analyze('/', join(dir, 'allowed', 'missing.csv'), [join(dir, 'allowed')]);
    assert.match(allowed.text, /missing\.csv: no such file/);
    const secret = await analyze(home, join(home, 'secret.csv'), [join(dir, 'allowed')]);
    assert.match(secret.text, /secret\.csv: outside the folders this server may read/);
    const below = await analyze(join(home, 'project'), 'missing.csv');
    assert.match(below.text, /missing\.csv: no such file/);
  });
});

describe('team-data mcp at the session limit', function () {
  this.timeout(120_000);

  it('a tool that needs a new session says the limit is reached and how to make room on this service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-data-mcp-limit-'));
    copyFileSync(join(ROOT, 'samples', 'sales.csv'), join(dir, 'sales.csv'));
    // The data folder's shared service, as `team-data mcp` reaches it.
    const attached = await attachOrStart({ dataDir: join(dir, 'data'), cliPath: await builtCli(), version: 'test', client: 'test', env: { ...process.env, ...sharedEnv(BUILT_CLI) } });
    const service = attached.discovery;
    const clients: Client[] = [];
    try {
      // Someone else's sessions fill the limit up (the service counts every user's).
      const filler = new TeamDataClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, userId: 'someone' });
      for (let i = 0; i < MAX_SESSIONS; i++) await filler.sessions.create({ title: `old ${i}` });
      for (const local of [true, false]) {
        const server = createMcpServer(new TeamDataClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, userId: 'mcp' }), { local, root: dir });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const client = new Client({ name: 'team-data-test', version: '1.0.0' });
        clients.push(client);
        await client.connect(clientSide);
        const r = (await client.callTool({ name: 'teamData_analyzeFiles', arguments: { paths: ['sales.csv'], question: 'total revenue by region' } })) as CallToolResult;
        const text = textOf(r);
        assert.equal(r.isError, true, text);
        assert.match(text, /^Could not analyze the files: session limit reached: delete sessions first( \(trace id \w+\))?\. The service keeps at most 150 sessions\. /);
        assert.match(text, /"team-data sessions delete --oldest 20" deletes the 20 oldest/);
        assert.match(text, local ? /run it with the same --data-dir as this MCP server \("team-data mcp"\)\./ : /run it with the same --base-url, --api-key and --user-id as this MCP server/);
        assert.match(text, /Sessions view of VS Code's Team Data Analysis panel/);
      }
    } finally {
      for (const c of clients) await c.close();
      await attached.lease.release();
      await stopShared(join(dir, 'data'));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
