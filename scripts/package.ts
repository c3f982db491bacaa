/**
 * Packages the extension as a .vsix for one platform with @vscode/vsce:
 *
 *     npm run package                          # this machine's platform
 *     npm run package -- --target darwin-arm64 [--out FILE]
 *
 * Why a staging folder instead of running vsce in the repository: the .vsix must hold production
 * bundles and exactly one DuckDB native binding, while dist/ holds the development bundles that
 * watchers and test runs in this checkout use at the same moment, and node_modules holds every
 * dependency and tool. So the release is assembled in a temporary folder (production bundles,
 * static files, the runtime modules the bundles leave external with the target's binding) and
 * vsce packs that folder under the repository's .vscodeignore. The result is then checked: a
 * .vsix that ships something that does not run, or misses something that does, is an error.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { collectRuntimeModules, externalRequires, type RuntimeModule } from './packaging/runtimeModules';
import { runQuiet } from './packaging/run';
import { currentTarget, isPackageTarget, PACKAGE_TARGETS, type PackageTarget } from './packaging/targets';
import { readVsixEntries, vsixProblems, type VsixEntry } from './packaging/vsixContents';
import { formatBytes } from '../src/shared/byteSize';

const REPO = resolve(__dirname, '..');

/** Files and folders copied as they are; .vscodeignore picks what ships from them. */
const STATIC_PATHS = ['.vscodeignore', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'media', 'samples', 'docs'];

/** Options of {@link packageExtension}. */
export interface PackageOptions {
  /** Default: this machine's platform. */
  target?: PackageTarget;
  /** Default: `out/vsix/<name>-<target>-<version>.vsix` in the repository. */
  out?: string;
  /** Progress lines (default: stdout with a `[package]` prefix). */
  log?: (line: string) => void;
  /** Stops the build and vsce (Ctrl+C in `npm start`). */
  signal?: AbortSignal;
}

/** What was built. */
export interface PackageResult {
  vsix: string;
  target: PackageTarget;
  /** Size of the .vsix file in bytes. */
  bytes: number;
  /** Uncompressed sizes of the production bundles, by file name (`extension.js`...). */
  bundles: Record<string, number>;
  /** The runtime modules inside (DuckDB's API, loader and this target's binding). */
  modules: RuntimeModule[];
  entries: VsixEntry[];
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

function readManifest(): Manifest {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') throw new Error('package.json has no name or version');
  return pkg;
}

/** Files under `dir`, relative to `base`, with `/` separators. */
function filesUnder(dir: string, base: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      if (name !== 'node_modules') out.push(...filesUnder(abs, base));
    } else out.push(relative(base, abs).split(sep).join('/'));
  }
  return out;
}

/**
 * Builds the production bundles and packs them for `target`.
 * @throws Error saying which step failed, with that step's output.
 */
export async function packageExtension(options: PackageOptions = {}): Promise<PackageResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`[package] ${line}\n`));
  const target = options.target ?? currentTarget();
  const pkg = readManifest();
  const out = resolve(options.out ?? join(REPO, 'out', 'vsix', `${pkg.name}-${target}-${pkg.version}.vsix`));
  const staging = mkdtempSync(join(tmpdir(), 'td-package-'));
  try {
    log(`building production bundles for ${target}`);
    const build = await runQuiet(process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(staging, 'dist')}`], { cwd: REPO, signal: options.signal });
    if (build.code !== 0) throw new Error(`the production build failed:\n${build.output.slice(-4000)}`);
    const bundles: Record<string, number> = {};
    for (const f of readdirSync(join(staging, 'dist'))) bundles[f] = statSync(join(staging, 'dist', f)).size;

    for (const p of STATIC_PATHS) {
      if (existsSync(join(REPO, p))) cpSync(join(REPO, p), join(staging, p), { recursive: true });
    }

    const jsBundles = readdirSync(join(staging, 'dist')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(staging, 'dist', f), 'utf8'));
    const externals = externalRequires(jsBundles);
    const modules = await collectRuntimeModules({ root: REPO, roots: externals, target, log, signal: options.signal });
    const moduleFiles = new Map<string, string[]>();
    for (const m of modules) {
      const dest = join(staging, ...m.relDir.split('/'));
      mkdirSync(dirname(dest), { recursive: true });
      // Nested node_modules are separate entries of `modules` when they are needed at all.
      if (m.files) {
        for (const f of m.files) cpSync(join(m.sourceDir, ...f.split('/')), join(dest, ...f.split('/')));
      } else {
        cpSync(m.sourceDir, dest, { recursive: true, filter: (src) => !relative(m.sourceDir, src).split(sep).includes('node_modules') });
      }
      moduleFiles.set(m.relDir, filesUnder(dest, staging));
    }
    const natives = modules.filter((m) => m.platformSpecific);
    if (externals.includes('@duckdb/node-api') && natives.length === 0) {
      throw new Error(`no DuckDB native binding for ${target} was found or fetched; the local service could not run`);
    }
    log(`runtime modules: ${modules.map((m) => `${m.name}@${m.version}${m.fetched ? ' (fetched)' : ''}`).join(', ')}`);

    // The staged manifest: only what runs. vsce asks npm for the production dependencies, so
    // they must be exactly the external modules; scripts and devDependencies mean nothing inside.
    const shipped = new Set(modules.map((m) => m.name));
    const runtimeDeps = externals.filter((n) => shipped.has(n));
    const staged: Manifest = { ...pkg, dependencies: Object.fromEntries(runtimeDeps.map((n) => [n, pkg.dependencies?.[n] ?? '*'])) };
    for (const key of ['devDependencies', 'scripts', 'bin', 'private']) delete staged[key];
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);

    log(`packing with vsce --target ${target}`);
    mkdirSync(dirname(out), { recursive: true });
    rmSync(out, { force: true });
    const vsce = join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce');
    // Relative README links stay relative: the README's images ship inside the .vsix, and VS Code
    // shows an installed extension's README from its own folder (no network needed).
    const args = [vsce, 'package', '--target', target, '--out', out, '--no-rewrite-relative-links', '--no-yarn'];
    const packed = await runQuiet(process.execPath, args, { cwd: staging, signal: options.signal });
    if (packed.code !== 0 || !existsSync(out)) throw new Error(`vsce package failed (exit ${packed.code}):\n${packed.output.slice(-4000)}`);

    const entries = await readVsixEntries(out);
    const problems = vsixProblems(entries, modules, moduleFiles);
    if (problems.length > 0) throw new Error(`the .vsix does not hold exactly what runs:\n  ${problems.join('\n  ')}`);
    const bytes = statSync(out).size;
    log(`${relative(process.cwd(), out) || out}: ${formatBytes(bytes)}, ${entries.length} files`);
    log(`bundles: extension ${formatBytes(bundles['extension.js'] ?? 0)}, local service ${formatBytes(bundles['cli.js'] ?? 0)}, webview ${formatBytes((bundles['webview.js'] ?? 0) + (bundles['webview.css'] ?? 0))}`);
    for (const m of natives) {
      const size = entries.filter((e) => e.path.startsWith(`${m.relDir}/`)).reduce((n, e) => n + e.size, 0);
      log(`native: ${m.name} (${formatBytes(size)} unpacked)`);
    }
    return { vsix: out, target, bytes, bundles, modules, entries };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const USAGE = `usage: npm run package [-- --target TARGET] [--out FILE]
  TARGET: ${PACKAGE_TARGETS.join(', ')} (default: this machine)`;

/** Parses the command line; returns a usage error text instead of throwing. */
export function parsePackageArgs(argv: readonly string[]): { target?: PackageTarget; out?: string; help?: boolean } | string {
  const out: { target?: PackageTarget; out?: string; help?: boolean } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--target' || flag === '--out') {
      const value = inline ?? argv[++i];
      if (!value) return `${flag} needs a value`;
      if (flag === '--out') out.out = value;
      else if (isPackageTarget(value)) out.target = value;
      else return `unknown target "${value}"; use one of ${PACKAGE_TARGETS.join(', ')}`;
    } else return `unknown argument "${arg}"`;
  }
  return out;
}

async function main(): Promise<number> {
  const parsed = parsePackageArgs(process.argv.slice(2));
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const result = await packageExtension({ ...parsed, signal: ac.signal });
    // Machine-readable last line for scripts and tests.
    process.stdout.write(`VSIX=${result.vsix}\n`);
    return 0;
  } catch (err) {
    if (ac.signal.aborted) {
      process.stderr.write('[package] interrupted\n');
      return 130;
    }
    process.stderr.write(`[package] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
