/**
 * The platforms a .vsix can be built for. The extension itself is JavaScript; only the local
 * service's DuckDB binding (`@duckdb/node-bindings-<platform>`) is native, so there is one .vsix
 * per platform that DuckDB ships a binding for, named with vsce's target names.
 */

/** vsce targets for which DuckDB publishes a native binding. */
export const PACKAGE_TARGETS = [
  'linux-x64',
  'linux-arm64',
  'alpine-x64',
  'alpine-arm64',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64',
  'win32-arm64',
] as const;

export type PackageTarget = (typeof PACKAGE_TARGETS)[number];

/** What npm's `os`/`cpu`/`libc` package fields are compared with. */
export interface TargetPlatform {
  os: 'linux' | 'darwin' | 'win32';
  cpu: 'x64' | 'arm64';
  /** Linux only: Alpine targets use musl. */
  libc?: 'glibc' | 'musl';
}

export function isPackageTarget(value: string): value is PackageTarget {
  return (PACKAGE_TARGETS as readonly string[]).includes(value);
}

export function targetPlatform(target: PackageTarget): TargetPlatform {
  const [kind, cpu] = target.split('-') as [string, 'x64' | 'arm64'];
  if (kind === 'alpine') return { os: 'linux', cpu, libc: 'musl' };
  if (kind === 'linux') return { os: 'linux', cpu, libc: 'glibc' };
  return { os: kind as 'darwin' | 'win32', cpu };
}

/**
 * The suffix platform-specific packages carry in their names (`linux-x64`, `linux-x64-musl`,
 * `darwin-arm64`...), the convention DuckDB (and esbuild, and others) follow.
 */
export function platformSuffix(target: PackageTarget): string {
  const p = targetPlatform(target);
  return `${p.os}-${p.cpu}${p.libc === 'musl' ? '-musl' : ''}`;
}

/** True when Node runs on musl (Alpine); Node's own report says which libc it was built for. */
function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return process.platform === 'linux' && !report?.header?.glibcVersionRuntime;
}

/**
 * The target of the machine this runs on.
 * @throws Error naming the platform when DuckDB has no binding for it.
 */
export function currentTarget(): PackageTarget {
  const kind = process.platform === 'linux' && isMusl() ? 'alpine' : process.platform;
  const target = `${kind}-${process.arch}`;
  if (!isPackageTarget(target)) {
    throw new Error(`no .vsix target for this machine (${target}); DuckDB has native bindings for ${PACKAGE_TARGETS.join(', ')}`);
  }
  return target;
}

/** A package.json's `os`/`cpu`/`libc` fields, as npm writes them. */
export interface PlatformFields {
  os?: unknown;
  cpu?: unknown;
  libc?: unknown;
}

/**
 * Whether a package with these fields belongs in a .vsix for `target`, by npm's rules: a list
 * allows its entries, or everything but the `!`-prefixed ones; a missing field allows everything.
 */
export function packageMatchesTarget(fields: PlatformFields, target: PackageTarget): boolean {
  const p = targetPlatform(target);
  const allows = (list: unknown, value: string | undefined): boolean => {
    if (!Array.isArray(list) || list.length === 0 || value === undefined) return true;
    const entries = list.filter((x): x is string => typeof x === 'string');
    const denied = entries.filter((x) => x.startsWith('!')).map((x) => x.slice(1));
    const allowed = entries.filter((x) => !x.startsWith('!'));
    if (denied.includes(value)) return false;
    return allowed.length === 0 || allowed.includes(value);
  };
  return allows(fields.os, p.os) && allows(fields.cpu, p.cpu) && allows(fields.libc, p.os === 'linux' ? p.libc : undefined);
}
