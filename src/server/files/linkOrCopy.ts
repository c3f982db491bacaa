import { copyFile, link } from 'node:fs/promises';

/** Puts `from` at `to`: a hard link costs nothing; a copy is the fallback across file systems. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}
