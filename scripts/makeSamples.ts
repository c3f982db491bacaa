/**
 * Writes the sample workspace files (samples/) deterministically, so anyone can regenerate them
 * and reviewers can see how they were made. Run: npx tsx scripts/makeSamples.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatCsv } from '../src/shared/csv';

let seed = 20240607;
function rand(): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)] as T;
}

const regions: Record<string, string[]> = {
  Europe: ['Germany', 'France', 'Spain', 'Italy', 'Netherlands'],
  'North America': ['United States', 'Canada', 'Mexico'],
  Asia: ['Japan', 'India', 'Singapore', 'South Korea'],
  'South America': ['Brazil', 'Argentina', 'Chile'],
};
const products = [
  ['Trail Runner Shoes', 'Footwear', 89.0], ['City Sneakers', 'Footwear', 64.5], ['Rain Jacket', 'Apparel', 120.0],
  ['Merino T-Shirt', 'Apparel', 39.9], ['Daypack 20L', 'Accessories', 55.0], ['Water Bottle', 'Accessories', 14.99],
  ['Trekking Poles', 'Equipment', 74.0], ['Headlamp', 'Equipment', 29.5],
] as const;
const channels = ['online', 'retail', 'partner'];

export function salesRows(count: number): string[][] {
  const header = ['order_id', 'order_date', 'region', 'country', 'channel', 'product', 'category', 'quantity', 'unit_price', 'discount', 'revenue', 'customer_id'];
  const rows: string[][] = [];
  const start = Date.UTC(2023, 0, 1);
  for (let i = 1; i <= count; i++) {
    const region = pick(Object.keys(regions));
    const [product, category, price] = pick(products);
    const quantity = 1 + Math.floor(rand() * 6);
    const discount = rand() < 0.7 ? 0 : pick([0.05, 0.1, 0.15, 0.2]);
    const day = new Date(start + Math.floor(rand() * 730) * 86_400_000).toISOString().slice(0, 10);
    const revenue = (quantity * price * (1 - discount)).toFixed(2);
    // A few blanks, as real exports have: missing channel or discount.
    rows.push([
      String(1000 + i), day, region, pick(regions[region] as string[]), rand() < 0.02 ? '' : pick(channels), product,
      category, String(quantity), price.toFixed(2), rand() < 0.03 ? '' : String(discount), revenue,
      `C${String(1 + Math.floor(rand() * 180)).padStart(4, '0')}`,
    ]);
  }
  rows.sort((a, b) => (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
  return [header, ...rows];
}

if (require.main === module) {
  writeFileSync(join(__dirname, '..', 'samples', 'sales.csv'), formatCsv(salesRows(600)));
  process.stdout.write('wrote samples/sales.csv\n');
}
