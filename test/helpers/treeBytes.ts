/** Bytes of every file under a folder: what a data folder grew by (tests and the in-place bench). */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await treeBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}
