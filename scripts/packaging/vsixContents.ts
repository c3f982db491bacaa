/**
 * What a built .vsix holds, and whether that is exactly what runs: the bundles, the manifest and
 * its strings, the walkthrough and sample files, the README's images, and the runtime modules
 * with one platform's native binding; no sources, tests, source maps or type declarations.
 * scripts/package.ts refuses a .vsix that fails this, and the packaging test asserts it again.
 */
import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';
import type { RuntimeModule } from './runtimeModules';

/** One file inside the .vsix, its path relative to the extension folder (`extension/`). */
export interface VsixEntry {
  path: string;
  /** Uncompressed size in bytes. */
  size: number;
}

/** The extension's files in a .vsix (vsce's own manifest files are left out). */
export async function readVsixEntries(vsixPath: string): Promise<VsixEntry[]> {
  const zip = await JSZip.loadAsync(await readFile(vsixPath));
  const out: VsixEntry[] = [];
  for (const file of Object.values(zip.files)) {
    if (file.dir || !file.name.startsWith('extension/')) continue;
    const data = await file.async('uint8array');
    out.push({ path: file.name.slice('extension/'.length), size: data.byteLength });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Files every .vsix must have: without them the extension or its local service cannot run. */
export const REQUIRED_FILES = ['package.json', 'package.nls.json', 'dist/extension.js', 'dist/cli.js', 'dist/sheetWorker.js', 'dist/webview.js', 'dist/webview.css', 'dist/explorer.js', 'dist/explorer.css', 'samples/sales.csv'];

/** Top-level folders and files outside node_modules that may ship. */
const ALLOWED_OUTSIDE_MODULES = [
  /^package(\.nls)?\.json$/,
  // vsce writes readme.md and changelog.md in lower case.
  /^(readme\.md|changelog\.md|license(\.txt)?)$/i,
  // sheetWorker.js: the worker thread the local service reads workbooks in.
  // explorer.js/css: the Team Data Explorer's webview (issue 27).
  /^dist\/(extension|cli|sheetWorker|webview|explorer)\.(js|css)$/,
  /^media\/icons\/[\w.-]+\.png$/,
  /^media\/walkthrough\/[\w.-]+\.md$/,
  /^samples\/sales\.csv$/,
  /^docs\/images\/[\w.-]+\.png$/,
];

/** Runtime code inside a module: these must all ship for `require` to work. */
const MODULE_CODE = /\.(js|cjs|mjs|json|node|so|dylib|dll)$/;

/**
 * Problems with a .vsix's file list (empty when it ships exactly what runs).
 * @param modules the runtime modules that must ship (and nothing else under node_modules)
 * @param moduleFiles for each module's `relDir`, its code files relative to the extension root
 */
export function vsixProblems(entries: readonly VsixEntry[], modules: readonly RuntimeModule[], moduleFiles: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const paths = new Set(entries.map((e) => e.path));
  for (const f of REQUIRED_FILES) if (!paths.has(f)) problems.push(`missing ${f}`);
  for (const e of entries) {
    if (/\.(map|ts|tsx)$/.test(e.path)) problems.push(`ships a source map or TypeScript file: ${e.path}`);
    if (e.path.startsWith('node_modules/')) {
      const owner = modules.find((m) => e.path.startsWith(`${m.relDir}/`));
      if (!owner) problems.push(`ships a module that does not run: ${e.path}`);
      else if (owner.files && !owner.files.includes(e.path.slice(owner.relDir.length + 1))) problems.push(`ships a part of ${owner.name} that does not run: ${e.path}`);
    } else if (!ALLOWED_OUTSIDE_MODULES.some((re) => re.test(e.path))) {
      problems.push(`ships a file that does not run: ${e.path}`);
    }
  }
  for (const m of modules) {
    for (const f of moduleFiles.get(m.relDir) ?? []) {
      if (MODULE_CODE.test(f) && !paths.has(f)) problems.push(`runtime file left out (add it to .vscodeignore): ${f}`);
    }
  }
  return problems;
}
