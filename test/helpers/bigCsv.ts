/**
 * A large CSV made fast: one block of 20,000 rows written over and over until the file reaches
 * `mb` megabytes (every block has the same figures, so totals are easy to know).
 */
import { open } from 'node:fs/promises';

export const BIG_CSV_BLOCK_ROWS = 20_000;

/** Row `i` of a block: `id,region,amount,day`, seven regions. */
export function bigCsvRow(i: number): string {
  return `${i},region-${i % 7},${(i * 37) % 1000}.25,2024-0${1 + (i % 9)}-1${i % 10}\n`;
}

/** Writes the file; returns how many blocks (of {@link BIG_CSV_BLOCK_ROWS} rows) it holds. */
export async function writeBigCsv(path: string, mb: number): Promise<number> {
  let block = '';
  for (let i = 0; i < BIG_CSV_BLOCK_ROWS; i++) block += bigCsvRow(i);
  const buf = Buffer.from(block);
  const f = await open(path, 'w');
  let blocks = 0;
  try {
    await f.write('id,region,amount,day\n');
    for (let written = 0; written < mb * 1024 * 1024; written += buf.length, blocks++) await f.write(buf);
  } finally {
    await f.close();
  }
  return blocks;
}
