/**
 * Invented orders for the in-place cache tests (inPlaceCache*.test.ts): a CSV whose totals by region
 * are known, and the copies a data folder holds.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer } from '../../src/api/index';
import { CACHE_DIR } from '../../src/server/duckdb/inPlaceCache';
import { answerTotals } from './answerTotals';

export const REGIONS = ['north', 'south', 'east', 'west'];

/** Invented orders; `bump` is added to every amount so an edit changes every total. */
export function ordersCsv(rows: number, bump = 0): string {
  const lines = ['order_id,order_date,region,amount,note'];
  for (let i = 0; i < rows; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push(`${i + 1},2024-03-${day},${REGIONS[i % 4] as string},${((i * 37) % 500) + bump},note ${(i * 7) % 300}`);
  }
  return `${lines.join('\n')}\n`;
}

export function totalsOf(csv: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [, , region, amount] = line.split(',');
    out.set(region as string, (out.get(region as string) ?? 0) + Number(amount));
  }
  return out;
}

export const parquetIn = async (dataDir: string): Promise<string[]> => (await readdir(join(dataDir, CACHE_DIR)).catch(() => [] as string[])).filter((n) => n.endsWith('.parquet'));

/**
 * The folders of an in-place cache test file, made before its tests and removed after: `root`, which
 * the service may read files in, and `outside`, where answers' tables are downloaded; and an answer's
 * totals by region, downloaded there.
 */
export function cacheFolders(): { root: string; outside: string; totals: (answer: Answer) => Promise<Map<string, number>> } {
  const f = { root: '', outside: '', totals: (answer: Answer) => answerTotals(answer, f.outside) };
  before(async () => {
    f.root = await mkdtemp(join(tmpdir(), 'team-data-cache-root-'));
    f.outside = await mkdtemp(join(tmpdir(), 'team-data-cache-out-'));
  });
  after(async () => {
    for (const d of [f.root, f.outside]) if (d) await rm(d, { recursive: true, force: true });
  });
  return f;
}
