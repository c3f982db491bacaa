/**
 * The in-place path check (issue 25, items 8 and 9): a path outside the read roots gets one
 * message whatever is there (a file, nothing, a link to either, a dangling link), a link's target
 * outside the roots is never spelled out, "does not exist" is said of paths inside the roots only,
 * and a file with other hard links is refused unless the service was told to read them.
 */
import { strict as assert } from 'node:assert';
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInPlacePath, resolveRoots } from '../../src/server/ingest/readRoots';

describe('in-place path check (readRoots)', () => {
  let base: string;
  let root: string;
  let outside: string;
  let roots: string[];

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'team-data-roots-')));
    root = join(base, 'root');
    outside = join(base, 'outside');
    await mkdir(join(root, 'data'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.csv'), 'a,b\n1,2\n');
    await writeFile(join(root, 'data', 'orders.csv'), 'a,b\n1,2\n');
    await symlink(join(outside, 'secret.csv'), join(root, 'data', 'toSecret.csv'));
    await symlink(join(outside, 'missing.csv'), join(root, 'data', 'toMissing.csv'));
    await symlink(outside, join(root, 'data', 'outdir'));
    await symlink(join(root, 'data', 'gone.csv'), join(root, 'data', 'toGoneInside.csv'));
    roots = await resolveRoots([root]);
  });
  after(async () => rm(base, { recursive: true, force: true }));

  /** The reason with the caller's own path taken out: what it says beyond what was asked. */
  async function reasonOf(path: string): Promise<string> {
    const r = await checkInPlacePath(path, roots);
    assert.equal(r.ok, false, path);
    return r.ok ? '' : r.reason.split(path).join('<path>');
  }

  it('says the same of every path outside the roots, whatever exists there', async () => {
    const paths = [
      join(outside, 'secret.csv'), // exists
      join(outside, 'missing.csv'), // does not
      join(base, 'nowhere', 'deeper', 'x.csv'), // nor does its folder
      join(root, 'data', 'toSecret.csv'), // a link inside to a file outside
      join(root, 'data', 'toMissing.csv'), // a link inside to nothing outside
      join(root, 'data', 'outdir', 'secret.csv'), // through a linked folder
      join(root, 'data', 'outdir', 'missing.csv'),
      `${root}/data/outdir/../missing.csv`, // `..` taken after the link (to base), as the file system does
      join(root, '..', 'outside', 'secret.csv'),
      join(root, '..', 'outside', 'missing.csv'),
    ];
    const reasons = new Set<string>();
    for (const p of paths) reasons.add(await reasonOf(p));
    assert.deepEqual([...reasons], ['<path> is outside the folders this service may read; only files in the workspace folders can be read in place']);
  });

  it('never spells out where a link outside the roots leads', async () => {
    const r = await checkInPlacePath(join(root, 'data', 'toSecret.csv'), roots);
    assert.ok(!r.ok && !r.reason.includes('secret') && !r.reason.includes(outside), JSON.stringify(r));
  });

  it('says "does not exist" of a missing path inside the roots, directly or through a link', async () => {
    for (const p of [join(root, 'data', 'gone.csv'), join(root, 'data', 'toGoneInside.csv'), join(root, 'new', 'x.csv')]) {
      const r = await checkInPlacePath(p, roots);
      assert.ok(!r.ok && r.missing === true && /does not exist/.test(r.reason), `${p}: ${JSON.stringify(r)}`);
    }
    const ok = await checkInPlacePath(join(root, 'data', 'orders.csv'), roots);
    assert.ok(ok.ok, JSON.stringify(ok));
  });

  it('refuses a file with other hard links (it may be the very file of a folder outside), unless told to read them', async () => {
    const twin = join(root, 'data', 'twin.csv');
    await link(join(outside, 'secret.csv'), twin);
    const refused = await checkInPlacePath(twin, roots);
    assert.ok(!refused.ok && /has other hard links/.test(refused.reason) && /--read-hard-links/.test(refused.reason), JSON.stringify(refused));
    // The extension starts the service itself: its users are told the setting that passes the flag.
    assert.ok(!refused.ok && /teamData\.localService\.readHardLinks/.test(refused.reason), refused.reason);
    const allowed = await checkInPlacePath(twin, roots, { hardLinks: true });
    assert.ok(allowed.ok, JSON.stringify(allowed));
  });
});
