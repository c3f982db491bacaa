/**
 * A follow-up chip refines the turn it sits under (issue 13): clicked after other questions, "only
 * Asia" under a monthly revenue answer must still answer monthly revenue for Asia, not refine the
 * session's latest question. The engine spells refinement chips out whole, so they carry their turn.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const REGIONS = ['Asia', 'Europe', 'Africa'];
const PRODUCTS = ['pens', 'ink', 'paper'];
const ROWS = ['date,region,product,revenue,quantity'];
for (let i = 0; i < 90; i++) {
  const d = new Date(Date.UTC(2024, Math.floor(i / 10), 1 + (i % 10))).toISOString().slice(0, 10);
  ROWS.push(`${d},${REGIONS[i % 3] as string},${PRODUCTS[(i >> 1) % 3] as string},${10 + ((i * 7) % 40)},${1 + (i % 5)}`);
}

describe('follow-up chips carry their own turn (issue 13)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'sales.csv': ROWS.join('\n') });
  });
  after(async () => rig?.close());

  it('a refinement chip clicked after another question still refines its turn', async () => {
    const first = await rig.ask('total revenue by month', ['sales.csv']);
    const chip = first.questions.find((q) => /revenue/.test(q) && /"(Asia|Europe|Africa)"/.test(q));
    assert.ok(chip !== undefined, `a value refinement is offered: ${first.questions.join(' | ')}`);
    const value = /"(Asia|Europe|Africa)"/.exec(chip)?.[1] as string;
    await rig.ask('total quantity by product', ['sales.csv'], { history: ['total revenue by month'] });
    const a = await rig.ask(chip, ['sales.csv'], { history: ['total revenue by month', 'total quantity by product'] });
    const line = a.message.split('\n')[0] ?? '';
    assert.match(line, /`revenue`/, line);
    assert.match(line, /month/, line);
    assert.match(line, new RegExp(value), line);
    assert.doesNotMatch(line, /quantity|product/, line);
    // The numbers are that region's monthly revenue.
    const want = new Map<string, number>();
    for (const r of ROWS.slice(1).map((l) => l.split(','))) if (r[1] === value) want.set((r[0] as string).slice(0, 7), (want.get((r[0] as string).slice(0, 7)) ?? 0) + Number(r[3]));
    const got = new Map((a.tables[0] ?? []).slice(1).map((r) => [String(r[0]).slice(0, 7), Number(r[1])]));
    assert.deepEqual(got, want);
  });

  it('a time chip reads as a plain period ("in 2024", "from … to …" with the end day counted) and answers exactly that', async () => {
    const first = await rig.ask('total revenue by region', ['sales.csv']);
    const chip = first.questions.find((q) => /\bfrom \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}|\bin \d{4}\b/.test(q));
    assert.ok(chip !== undefined, `a time refinement is offered: ${first.questions.join(' | ')}`);
    assert.doesNotMatch(chip, /\bfor from\b/);
    const range = /from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(chip);
    const year = /\bin (\d{4})\b/.exec(chip)?.[1];
    // The end day of a written range is counted (the chip drifted a day when it was not).
    const inside = (d: string): boolean => (range !== null ? d >= (range[1] as string) && d <= (range[2] as string) : d.startsWith(`${year}-`));
    const a = await rig.ask(chip, ['sales.csv']);
    const want = new Map<string, number>();
    for (const r of ROWS.slice(1).map((l) => l.split(','))) {
      if (inside(r[0] as string)) want.set(r[1] as string, (want.get(r[1] as string) ?? 0) + Number(r[3]));
    }
    const got = new Map((a.tables[0] ?? []).slice(1).map((r) => [String(r[0]), Number(r[1])]));
    assert.deepEqual(got, want, chip);
    const r = await rig.ask('total revenue by region from 2024-01-01 to 2024-01-31', ['sales.csv']);
    const jan = new Map<string, number>();
    for (const row of ROWS.slice(1).map((l) => l.split(','))) if ((row[0] as string) >= '2024-01-01' && (row[0] as string) <= '2024-01-31') jan.set(row[1] as string, (jan.get(row[1] as string) ?? 0) + Number(row[3]));
    assert.deepEqual(new Map((r.tables[0] ?? []).slice(1).map((x) => [String(x[0]), Number(x[1])])), jan, 'a written range counts its last day');
  });
  it('offers no chip that splits by a column the turn fixes to one value, or that adds a second value filter', async () => {
    // (Walk of issue 24: "... and region where region is Asia", "... where region is Asia and where country is Argentina".)
    const a = await rig.ask('total revenue by month where region is Asia', ['sales.csv']);
    assert.ok(a.questions.length > 0);
    for (const q of a.questions) {
      assert.doesNotMatch(q, /and `region` where `region` is/, q);
      assert.doesNotMatch(q, /"Asia".*where `product` is|where `product` is.*"Asia"/, q);
    }
  });
});
