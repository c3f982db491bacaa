/**
 * What answers are made of: charts from Vega-Lite (bar, line, histogram, scatter) as standalone SVG,
 * message fragments that concatenate back losslessly, and shown SQL that reproduces tables from
 * JSON, TSV and windows-1252 CSV files (and names the excel extension for workbooks).
 */
import { strict as assert } from 'node:assert';
import * as XLSX from '@e965/xlsx';
import { messageFragments, sqlBlock } from '../../src/server/engine/answerWriter';
import { chartSpec, renderChart, type ChartRequest } from '../../src/server/engine/charts';
import { runShownSql, startRig, type EngineRig } from './engineHarness';

describe('answer outputs', function () {
  this.timeout(60_000);

  describe('charts', () => {
    const rows = [{ region: 'Europe', total: 30 }, { region: 'Asia <script>alert(1)</script>', total: 12 }];
    it('encodes bars over categories (in the given order), lines over time, binned histograms and scatter plots', () => {
      const bar = chartSpec({ kind: 'bar', title: 't', x: 'region', y: 'total', xType: 'nominal', rows, keepOrder: true }) as unknown as { mark: string; encoding: { x: { sort: unknown; type: string } } };
      assert.equal(bar.mark, 'bar');
      assert.equal(bar.encoding.x.sort, null);
      const line = chartSpec({ kind: 'line', title: 't', x: 'month', y: 'v', xType: 'temporal', rows: [{ month: '2024-01-01', v: 1 }] }) as unknown as { mark: { type: string }; encoding: { x: { type: string } } };
      assert.equal(line.mark.type, 'line');
      assert.equal(line.encoding.x.type, 'temporal');
      const hist = chartSpec({ kind: 'histogram', title: 't', x: 'bin_start', x2: 'bin_end', y: 'row_count', xType: 'quantitative', rows: [], xTitle: 'revenue' }) as unknown as { encoding: { x: { bin: unknown; title: string }; x2: { field: string } } };
      assert.deepEqual(hist.encoding.x.bin, { binned: true });
      assert.equal(hist.encoding.x.title, 'revenue');
      assert.equal(hist.encoding.x2.field, 'x2');
      const many = chartSpec({ kind: 'bar', title: 't', x: 'k', y: 'v', xType: 'nominal', rows: Array.from({ length: 12 }, (_v, i) => ({ k: `k${i}`, v: i })) }) as unknown as { encoding: { y: { field: string } } };
      assert.equal(many.encoding.y.field, 'x', 'many categories turn into horizontal bars');
    });

    it('renders standalone SVG with data text escaped, reusing compiled charts across data', async () => {
      const req: ChartRequest = { kind: 'bar', title: 'Total by region', x: 'region', y: 'total', xType: 'nominal', rows };
      const svg = await renderChart(req);
      assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>$/);
      assert.ok(!svg.includes('<script'), 'data values are escaped text, never markup');
      assert.match(svg, /&lt;script&gt;/);
      const again = await renderChart({ ...req, rows: [{ region: 'Oceania', total: 99 }] });
      assert.match(again, /Oceania/);
      assert.doesNotMatch(again, /Europe/);
      const scatter = await renderChart({ kind: 'scatter', title: 's', x: 'a', y: 'b', xType: 'quantitative', rows: [{ a: 1, b: 2 }, { a: 2, b: 3 }] });
      assert.match(scatter, /<svg/);
      // Column names Vega would read as paths ("a.b", brackets, quotes) still chart, titled as written.
      const odd = await renderChart({ kind: 'bar', title: 'odd', x: 'a "q".col[0]', y: 'total.sum', xType: 'nominal', rows: [{ 'a "q".col[0]': 'x', 'total.sum': 3 }, { 'a "q".col[0]': 'y', 'total.sum': 5 }] });
      assert.match(odd, /total\.sum/);
    });

    it('gives concurrent renders of one chart shape their own data, and a reused chart the same SVG as its first render', async () => {
      const req: ChartRequest = { kind: 'bar', title: 'Same shape', x: 'region', y: 'total', xType: 'nominal', rows: [] };
      const first = await renderChart({ ...req, rows: [{ region: 'Alpha', total: 1 }, { region: 'Beta', total: 2 }] });
      const [a, b, c] = await Promise.all([
        renderChart({ ...req, rows: [{ region: 'Gamma', total: 5 }, { region: 'Delta', total: 6 }] }),
        renderChart({ ...req, rows: [{ region: 'Kappa', total: 7 }, { region: 'Lambda', total: 8 }] }),
        renderChart({ ...req, rows: [{ region: 'Alpha', total: 1 }, { region: 'Beta', total: 2 }] }),
      ]);
      assert.match(a, /Gamma/);
      assert.doesNotMatch(a, /Kappa|Alpha/);
      assert.match(b, /Lambda/);
      assert.doesNotMatch(b, /Gamma|Alpha/);
      // A kept view may emit reused axis ticks in another order; the drawing is the same.
      const elements = (svg: string): string[] => (svg.match(/<[^>]+>[^<]*/g) ?? []).sort();
      assert.deepEqual(elements(c), elements(first), 'a kept chart draws the same data as a fresh one');
    });
  });

  it('streams messages in fragments that join back to the text, breaking at whitespace', () => {
    const text = `**Europe** has the highest total \`revenue\` (30), followed by Asia (12).\n\n- Europe: 30\n- Asia: 12\n${'word '.repeat(60)}end`;
    const parts = messageFragments(text);
    assert.ok(parts.length > 3);
    assert.equal(parts.join(''), text);
    for (const p of parts.slice(0, -1)) assert.match(p, /\s$/);
    assert.deepEqual(messageFragments(''), []);
    assert.deepEqual(messageFragments('x'.repeat(100)).join(''), 'x'.repeat(100));
  });

  it('fences SQL with more backticks than it contains', () => {
    const block = sqlBlock(['Runs in DuckDB'], [{ comment: 'odd `name`', sql: 'SELECT 1 AS "a```b"' }]);
    assert.match(block, /^````sql\n-- Runs in DuckDB\n\n-- odd 'name'\nSELECT 1 AS "a```b";\n````$/);
  });

  describe('shown SQL for other file formats', () => {
    let rig: EngineRig;
    before(async () => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['team', 'points'], ['red', 3], ['blue', 5], ['red', 4]]), 'Scores');
      rig = await startRig({
        'events.json': JSON.stringify([{ kind: 'click', ms: 120, at: '2024-03-01' }, { kind: 'view', ms: 80, at: '2024-03-02' }, { kind: 'click', ms: 100, at: '2024-03-05' }]),
        'teams.tsv': 'team\tpoints\nred\t3\nblue\t5\nred\t4\n',
        'legacy.csv': Buffer.concat([Buffer.from('city,amount\n'), Buffer.from([0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e]), Buffer.from(',10\nParis,5\n')]),
        'book.xlsx': XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
      });
    });
    after(async () => rig?.close());

    async function reproduce(q: string, file: string): Promise<{ shown: string; same: boolean }> {
      const a = await rig.ask(q, [file]);
      const table = a.tables[a.tables.length - 1] ?? [];
      const code = a.code[a.code.length - 1] ?? '';
      const results = await runShownSql(code, rig.dir);
      const header = JSON.stringify(table[0]);
      const match = results.find((r) => JSON.stringify(r.columns) === header);
      const norm = (rows: ReadonlyArray<readonly unknown[]>): string => rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join('|')).sort().join('\n');
      return { shown: code, same: match !== undefined && norm(match.rows) === norm(table.slice(1)) };
    }

    it('JSON through read_json_auto, TSV through read_csv with a tab delimiter, legacy encodings through latin-1', async () => {
      const json = await reproduce('average ms by kind', 'events.json');
      assert.match(json.shown, /read_json_auto\('events\.json'/);
      assert.ok(json.same, json.shown);
      const tsv = await reproduce('total points by team', 'teams.tsv');
      assert.match(tsv.shown, /delim = '\\t'/);
      assert.ok(tsv.same, tsv.shown);
      const legacy = await reproduce('total amount by city', 'legacy.csv');
      assert.match(legacy.shown, /encoding = 'latin-1'/);
      assert.ok(legacy.same, legacy.shown);
    });

    it('workbooks are shown with read_xlsx and a note about the excel extension', async () => {
      const a = await rig.ask('total points by team', ['book.xlsx']);
      assert.deepEqual(a.tables[0], [['team', 'total_points'], ['red', '7'], ['blue', '5']]);
      assert.match(a.code[0] ?? '', /read_xlsx\('book\.xlsx', sheet = 'Scores', header = true\)/);
      assert.match(a.code[0] ?? '', /excel extension/);
    });
  });
});
