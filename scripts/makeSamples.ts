/**
 * Writes the sample workspace files (samples/) deterministically, so anyone can regenerate them
 * and reviewers can see how they were made. Run: npx tsx scripts/makeSamples.ts
 *
 * - sales.csv: 600 orders of a made-up outdoor retailer (dates, regions, channels, blanks).
 * - targets.xlsx: two sheets, quarterly revenue targets per region (set around the real sales,
 *   so "did we hit the target?" has a mixed answer) and the product catalog (costs, launch dates,
 *   return rules) that joins with sales.csv on the product name.
 * - refund-policy.md: the retailer's returns and refunds policy (scripts/samplePolicy.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { formatCsv } from '../src/shared/csv';
import { refundPolicyMarkdown } from './samplePolicy';

/** A small LCG: the same seed gives the same files on every machine and Node version. */
function makeRng(seed: number): { rand(): number; pick<T>(xs: readonly T[]): T } {
  let state = seed;
  const rand = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { rand, pick: <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T };
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
  const { rand, pick } = makeRng(20240607);
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

const owners: Record<string, string> = {
  Europe: 'Lena Hoffmann', 'North America': 'Marcus Reid', Asia: 'Aiko Tanaka', 'South America': 'Camila Rojas',
};

/** Quarterly targets per region, each within -15 %..+20 % of what `sales` actually achieved. */
export function targetRows(sales: string[][]): (string | number)[][] {
  const { rand } = makeRng(20240921);
  const actual = new Map<string, { revenue: number; orders: number }>();
  for (const row of sales.slice(1)) {
    const [, date, region, , , , , , , , revenue] = row;
    const key = `${date!.slice(0, 4)}|Q${Math.floor((Number(date!.slice(5, 7)) - 1) / 3) + 1}|${region}`;
    const a = actual.get(key) ?? { revenue: 0, orders: 0 };
    a.revenue += Number(revenue);
    a.orders += 1;
    actual.set(key, a);
  }
  const rows: (string | number)[][] = [['year', 'quarter', 'region', 'revenue_target_usd', 'orders_target', 'owner']];
  for (const year of ['2023', '2024']) {
    for (const quarter of ['Q1', 'Q2', 'Q3', 'Q4']) {
      for (const region of Object.keys(regions)) {
        const a = actual.get(`${year}|${quarter}|${region}`) ?? { revenue: 0, orders: 0 };
        const factor = 0.85 + rand() * 0.35;
        const revenueTarget = Math.max(500, Math.round((a.revenue * factor) / 500) * 500);
        const ordersTarget = Math.max(5, Math.round(a.orders * (0.9 + rand() * 0.25)));
        rows.push([Number(year), quarter, region, revenueTarget, ordersTarget, owners[region] ?? '']);
      }
    }
  }
  return rows;
}

/** Excel's serial day number of a UTC date: time-zone free, unlike writing JS Dates. */
function excelDate(iso: string): XLSX.CellObject {
  return { t: 'n', v: Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25_569, z: 'yyyy-mm-dd' };
}

/** The product catalog: every product sold in sales.csv plus one discontinued and one planned. */
export function catalogRows(): (string | number | XLSX.CellObject)[][] {
  const header = ['sku', 'product', 'category', 'list_price_usd', 'unit_cost_usd', 'launch_date', 'supplier', 'status', 'warranty_years', 'returnable'];
  const details: Record<string, [string, number, string, string, string]> = {
    'Trail Runner Shoes': ['ST-FW-101', 41.2, '2020-03-02', 'Alpen Footwear GmbH', 'yes, unworn outdoors'],
    'City Sneakers': ['ST-FW-114', 27.9, '2021-09-15', 'Alpen Footwear GmbH', 'yes, unworn outdoors'],
    'Rain Jacket': ['ST-AP-205', 58.0, '2019-10-01', 'Northwind Textiles', 'yes, with labels'],
    'Merino T-Shirt': ['ST-AP-231', 16.4, '2022-04-11', 'Kea Merino Ltd', 'yes, unwashed'],
    'Daypack 20L': ['ST-AC-310', 22.5, '2020-06-22', 'Sendero Bags S.A.', 'yes'],
    'Water Bottle': ['ST-AC-342', 4.1, '2019-05-06', 'Sendero Bags S.A.', 'unopened only'],
    'Trekking Poles': ['ST-EQ-407', 31.0, '2021-02-08', 'Ridgeline Gear Co', 'yes, complete'],
    'Headlamp': ['ST-EQ-455', 11.75, '2022-11-07', 'Lumen Works', 'yes, without batteries'],
  };
  const rows: (string | number | XLSX.CellObject)[][] = [header];
  for (const [product, category, price] of products) {
    const [sku, cost, launched, supplier, returnable] = details[product] as [string, number, string, string, string];
    rows.push([sku, product, category, price, cost, excelDate(launched), supplier, 'active', product === 'Trekking Poles' ? 3 : 2, returnable]);
  }
  rows.push(['ST-EQ-420', 'Camp Stove', 'Equipment', 95.0, 47.3, excelDate('2018-04-16'), 'Ridgeline Gear Co', 'discontinued', 2, 'yes, unused']);
  rows.push(['ST-AP-260', 'Down Vest', 'Apparel', 149.0, 71.0, excelDate('2025-03-03'), 'Northwind Textiles', 'planned', 2, 'yes, with labels']);
  return rows;
}

/** The two-sheet workbook as bytes; fixed properties keep the bytes identical between runs. */
export function targetsWorkbook(sales: string[][]): Buffer {
  const wb = XLSX.utils.book_new();
  wb.Props = { Title: 'Sales targets and product catalog', Author: 'Team Data Analysis samples', CreatedDate: new Date(Date.UTC(2024, 5, 7)) };
  const targets = XLSX.utils.aoa_to_sheet(targetRows(sales));
  targets['!cols'] = [{ wch: 6 }, { wch: 8 }, { wch: 15 }, { wch: 19 }, { wch: 14 }, { wch: 16 }];
  for (let r = 1; r <= 32; r++) {
    const cell = targets[XLSX.utils.encode_cell({ r, c: 3 })] as XLSX.CellObject | undefined;
    if (cell) cell.z = '#,##0';
  }
  XLSX.utils.book_append_sheet(wb, targets, 'Targets by region');
  const catalog = XLSX.utils.aoa_to_sheet(catalogRows());
  catalog['!cols'] = [{ wch: 10 }, { wch: 19 }, { wch: 12 }, { wch: 14 }, { wch: 14 }, { wch: 12 }, { wch: 20 }, { wch: 13 }, { wch: 15 }, { wch: 22 }];
  XLSX.utils.book_append_sheet(wb, catalog, 'Product catalog');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

if (require.main === module) {
  const dir = join(__dirname, '..', 'samples');
  const sales = salesRows(600);
  writeFileSync(join(dir, 'sales.csv'), formatCsv(sales));
  writeFileSync(join(dir, 'targets.xlsx'), targetsWorkbook(sales));
  writeFileSync(join(dir, 'refund-policy.md'), refundPolicyMarkdown('2024-01-01'));
  process.stdout.write('wrote samples/sales.csv, samples/targets.xlsx, samples/refund-policy.md\n');
}
