/**
 * The pure parts of packaging and of the launcher: platform targets and npm's os/cpu/libc rules,
 * finding the modules a bundle leaves external, judging a .vsix file list, and the command lines
 * of `npm run package` and `npm start`.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePackageArgs } from '../../scripts/package';
import { collectRuntimeModules, externalRequires, type RuntimeModule } from '../../scripts/packaging/runtimeModules';
import { currentTarget, packageMatchesTarget, PACKAGE_TARGETS, platformSuffix, targetPlatform } from '../../scripts/packaging/targets';
import { vsixProblems, type VsixEntry } from '../../scripts/packaging/vsixContents';
import { parseStartArgs } from '../../scripts/startArgs';
import { REPO } from './packagedVsix';

const entry = (path: string): VsixEntry => ({ path, size: 1 });
const mod = (name: string): RuntimeModule => ({ name, version: '1.0.0', sourceDir: `/x/${name}`, relDir: `node_modules/${name}`, platformSpecific: name.includes('bindings-'), fetched: false });

describe('packaging: targets', () => {
  it('maps every vsce target to the platform npm compares, and names DuckDB bindings by suffix', () => {
    assert.deepEqual(targetPlatform('alpine-arm64'), { os: 'linux', cpu: 'arm64', libc: 'musl' });
    assert.deepEqual(targetPlatform('linux-x64'), { os: 'linux', cpu: 'x64', libc: 'glibc' });
    assert.deepEqual(targetPlatform('win32-x64'), { os: 'win32', cpu: 'x64' });
    assert.deepEqual(PACKAGE_TARGETS.map(platformSuffix), ['linux-x64', 'linux-arm64', 'linux-x64-musl', 'linux-arm64-musl', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64']);
    assert.equal(currentTarget(), `${process.platform}-${process.arch}`, 'this machine (glibc Linux in CI)');
  });

  it("follows npm's os/cpu/libc rules, including negations and missing fields", () => {
    const glibcX64 = { os: ['linux'], cpu: ['x64'], libc: ['glibc'] };
    assert.equal(packageMatchesTarget(glibcX64, 'linux-x64'), true);
    assert.equal(packageMatchesTarget(glibcX64, 'alpine-x64'), false);
    assert.equal(packageMatchesTarget(glibcX64, 'linux-arm64'), false);
    assert.equal(packageMatchesTarget({ os: ['darwin'], cpu: ['arm64'] }, 'darwin-arm64'), true);
    assert.equal(packageMatchesTarget({ os: ['darwin'], cpu: ['arm64'] }, 'win32-arm64'), false);
    assert.equal(packageMatchesTarget({ os: ['!win32'] }, 'win32-x64'), false);
    assert.equal(packageMatchesTarget({ os: ['!win32'] }, 'darwin-x64'), true);
    assert.equal(packageMatchesTarget({ libc: ['musl'] }, 'darwin-x64'), true, 'libc only applies to Linux');
    assert.equal(packageMatchesTarget({}, 'linux-arm64'), true);
  });
});

describe('packaging: what runs', () => {
  it('finds bare external requires in bundles, not built-ins, vscode or relative paths', () => {
    const bundle = [
      'var a=require("node:fs"),b=require("path"),c=require("@duckdb/node-api");',
      "const v=require('vscode'),s=require(\"node:sqlite\"),x=require('./local'),d=require(\"lodash/get\");",
      'require("@scope/pkg/deep/file.js")',
      // Dynamic imports of externals stay real imports; other functions named like them do not count.
      'async function p(){return import("pdfjs-dist/legacy/build/pdf.mjs")}const y=await import( "node:url" ),z=import("./chunk.js");',
      'x.require("not-a-module");myimport("nor-this");',
      // Code a library generates as text (ajv's standalone output) is not a require of the bundle.
      `equal.code = 'require("ajv/dist/runtime/equal").default';f=_\`require("ajv-formats/dist/formats").\${n}\`;`,
    ].join('\n');
    assert.deepEqual(externalRequires([bundle]), ['@duckdb/node-api', '@scope/pkg', 'lodash', 'pdfjs-dist']);
  });

  it('ships only the pdf.js files that run in Node, without its optional canvas', async () => {
    const modules = await collectRuntimeModules({ root: REPO, roots: ['pdfjs-dist'], target: currentTarget(), log: () => undefined });
    assert.deepEqual(
      modules.map((m) => [m.relDir, m.files]),
      [['node_modules/pdfjs-dist', ['package.json', 'LICENSE', 'legacy/build/pdf.mjs', 'legacy/build/pdf.worker.mjs']]],
    );
    // The worker is imported by this name from next to pdf.mjs; a pdf.js update that renames it must fail here.
    const entry = readFileSync(join(REPO, 'node_modules', 'pdfjs-dist', 'legacy', 'build', 'pdf.mjs'), 'utf8');
    assert.match(entry, /workerSrc \|\|= "\.\/pdf\.worker\.mjs"/);
  });

  it("collects DuckDB's closure from node_modules with only the target's binding, and skips absent optional requires", async () => {
    const log: string[] = [];
    const modules = await collectRuntimeModules({ root: REPO, roots: ['@duckdb/node-api', 'canvas'], target: currentTarget(), log: (l) => log.push(l) });
    assert.deepEqual(modules.map((m) => m.relDir), [
      'node_modules/@duckdb/node-api',
      'node_modules/@duckdb/node-bindings',
      `node_modules/@duckdb/node-bindings-${platformSuffix(currentTarget())}`,
      'node_modules/detect-libc',
    ]);
    assert.deepEqual(modules.filter((m) => m.platformSpecific).map((m) => m.name), [`@duckdb/node-bindings-${platformSuffix(currentTarget())}`]);
    assert.deepEqual(log, ['optional requires left out (not installed; the bundles work without them): canvas']);
  });

  it('accepts exactly the runtime files and names everything else', () => {
    const modules = [mod('@duckdb/node-api'), mod('@duckdb/node-bindings-linux-x64')];
    const files = new Map([
      ['node_modules/@duckdb/node-api', ['node_modules/@duckdb/node-api/package.json', 'node_modules/@duckdb/node-api/lib/index.js', 'node_modules/@duckdb/node-api/lib/index.d.ts']],
      ['node_modules/@duckdb/node-bindings-linux-x64', ['node_modules/@duckdb/node-bindings-linux-x64/duckdb.node']],
    ]);
    const good = ['package.json', 'package.nls.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'dist/extension.js', 'dist/cli.js', 'dist/sheetWorker.js', 'dist/webview.js', 'dist/webview.css', 'dist/explorer.js', 'dist/explorer.css', 'samples/sales.csv', 'media/icons/icon.png', 'docs/images/tree.png', 'node_modules/@duckdb/node-api/package.json', 'node_modules/@duckdb/node-api/lib/index.js', 'node_modules/@duckdb/node-bindings-linux-x64/duckdb.node'];
    assert.deepEqual(vsixProblems(good.map(entry), modules, files), []);
    const bad = [...good.filter((p) => p !== 'dist/cli.js' && p !== 'dist/explorer.css' && !p.endsWith('index.js')), 'dist/extension.js.map', 'src/extension/extension.ts', 'node_modules/undici/index.js', 'node_modules/@duckdb/node-bindings-darwin-arm64/duckdb.node'];
    assert.deepEqual(vsixProblems(bad.map(entry), modules, files), [
      'missing dist/cli.js',
      'missing dist/explorer.css',
      'ships a source map or TypeScript file: dist/extension.js.map',
      'ships a file that does not run: dist/extension.js.map',
      'ships a source map or TypeScript file: src/extension/extension.ts',
      'ships a file that does not run: src/extension/extension.ts',
      'ships a module that does not run: node_modules/undici/index.js',
      'ships a module that does not run: node_modules/@duckdb/node-bindings-darwin-arm64/duckdb.node',
      'runtime file left out (add it to .vscodeignore): node_modules/@duckdb/node-api/lib/index.js',
    ]);
  });

  it('holds a partly shipped module to its listed files', () => {
    const pdfjs: RuntimeModule = { ...mod('pdfjs-dist'), files: ['package.json', 'legacy/build/pdf.mjs'] };
    const files = new Map([['node_modules/pdfjs-dist', ['node_modules/pdfjs-dist/package.json', 'node_modules/pdfjs-dist/legacy/build/pdf.mjs']]]);
    const base = ['package.json', 'package.nls.json', 'dist/extension.js', 'dist/cli.js', 'dist/sheetWorker.js', 'dist/webview.js', 'dist/webview.css', 'dist/explorer.js', 'dist/explorer.css', 'samples/sales.csv'];
    assert.deepEqual(vsixProblems([...base, 'node_modules/pdfjs-dist/package.json', 'node_modules/pdfjs-dist/legacy/build/pdf.mjs'].map(entry), [pdfjs], files), []);
    assert.deepEqual(vsixProblems([...base, 'node_modules/pdfjs-dist/package.json', 'node_modules/pdfjs-dist/build/pdf.mjs'].map(entry), [pdfjs], files), [
      'ships a part of pdfjs-dist that does not run: node_modules/pdfjs-dist/build/pdf.mjs',
      'runtime file left out (add it to .vscodeignore): node_modules/pdfjs-dist/legacy/build/pdf.mjs',
    ]);
  });
});

describe('command lines of npm run package and npm start', () => {
  it('package: --target and --out in both spellings; clear errors otherwise', () => {
    assert.deepEqual(parsePackageArgs([]), {});
    assert.deepEqual(parsePackageArgs(['--target', 'darwin-arm64', '--out=x.vsix']), { target: 'darwin-arm64', out: 'x.vsix' });
    assert.match(parsePackageArgs(['--target', 'linux-armhf']) as string, /unknown target "linux-armhf"; use one of linux-x64/);
    assert.equal(parsePackageArgs(['--target']), '--target needs a value');
    assert.equal(parsePackageArgs(['--verbose']), 'unknown argument "--verbose"');
  });

  it('start: editor, workspace, port and vsix; clear errors otherwise', () => {
    assert.deepEqual(parseStartArgs([]), { editor: 'auto', port: 0, help: false });
    assert.deepEqual(parseStartArgs(['--editor=code-server', '--workspace', '../demo', '--port', '8080', '--vsix', 'a.vsix']), {
      editor: 'code-server', workspace: '../demo', port: 8080, vsix: 'a.vsix', help: false,
    });
    assert.equal((parseStartArgs(['-h']) as { help: boolean }).help, true);
    assert.match(parseStartArgs(['--editor', 'vim']) as string, /--editor must be auto, code or code-server/);
    assert.match(parseStartArgs(['--port', '70000']) as string, /--port must be a port number/);
    assert.equal(parseStartArgs(['--workspace']), '--workspace needs a value');
    assert.equal(parseStartArgs(['samples']), 'unknown argument "samples"');
  });
});
