/**
 * Numbers in the answer panel's tables, as people read them (issue 24): thousands separators and
 * the column's decimals, years and ids as written, a visible mark on a rounded value with the
 * exact one on hover, and copies that never pass a rounded number off as exact. A profile table
 * styles each row's figures by the column that row describes. Screenshots in three themes.
 */
import { strict as assert } from 'node:assert';
import { fileKeyOf } from '../../src/shared/protocol';
import type { ThemeName } from './fixtures/themes';
import { answerOf, initMessage, respond, turnOf } from './builders';
import { closeCleanly, PanelPage, usePanelBrowser } from './harness';

const url = 'https://files.example/t/totals.csv?sig=3';
const fileKey = fileKeyOf({ type: 'TABLE', content: { url } });
// "Europe 250128207.0" was shown (and copied) for 250,128,206.98.
const TOTALS = [
  'region,total_revenue,avg_temp,year,order_id,missing_pct',
  'Europe,250128206.98,60.77015000000014,2023,1120,12.5',
  'Oceania,1234.5,12.3,2024,100226,0',
  'Asia,10060.3,0.5,2024,7,33.3333333',
].join('\n') + '\n';
const PROFILE = [
  'column_name,column_type,non_null_count,null_count,distinct_count,min_value,max_value,mean_value,top_values',
  'year,BIGINT,200,0,2,2023,2024,2023.5,',
  'revenue,DOUBLE,200,0,200,0.3,4998.14,2514.4092037999903,',
  'temp,DOUBLE,200,0,200,0.039388794567062804,60.77015000000014,30.1,',
  'order_date,DATE,200,0,100,2023-01-04,2024-12-30,,',
  'region,VARCHAR,200,0,2,,,,Asia (100); Europe (100)',
].join('\n') + '\n';

describe('answer panel (browser): numbers people read', function () {
  this.timeout(120_000);
  const env = usePanelBrowser();
  let panel: PanelPage | undefined;
  afterEach(async () => {
    await closeCleanly(panel);
    panel = undefined;
  });

  async function open(csv: string, theme: ThemeName = 'dark'): Promise<PanelPage> {
    panel = await PanelPage.open(env.browser, env.server, { theme, width: csv === PROFILE ? 1180 : 760, height: 420 });
    const answer = answerOf([{ type: 'TABLE', content: { url, name: 'totals.csv' }, ...respond }]);
    await panel.send(initMessage([turnOf('t1', 'Total revenue by region', answer)]), { type: 'tableData', turnId: 't1', fileKey, data: { status: 'ready', csv } });
    return panel;
  }

  /** Every body row's cells: the text shown and the hover title. */
  function cells(p: PanelPage): Promise<Array<Array<{ text: string; title: string }>>> {
    return p.page.$$eval('.grid-body .grid-row:not([hidden])', (rows) =>
      rows
        .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
        .map((r) => [...r.children].map((c) => ({ text: c.textContent ?? '', title: c.getAttribute('title') ?? '' }))));
  }

  it('a missing group key shows "(missing)" as the text and chart say; copies keep the empty value (issue 24 walk)', async () => {
    const csv = 'channel,avg_discount\npartner,0.04804\n,0.03889\nonline,0.03614\n';
    const p = await open(csv);
    const got = await cells(p);
    assert.deepEqual(got.map((r) => r.map((c) => c.text)), [['partner', '0.04804'], ['(missing)', '0.03889'], ['online', '0.03614']]);
    const missing = await p.page.$$eval('.grid-cell.missing', (els) => els.map((e) => ({ text: e.textContent, italic: getComputedStyle(e).fontStyle })));
    assert.deepEqual(missing, [{ text: '(missing)', italic: 'italic' }], 'styled as a note, not as data');
    const [data, note] = await p.page.$$eval('.grid-body .grid-row[aria-rowindex="3"] .grid-cell', (els) => [getComputedStyle(els[1] as Element).color, getComputedStyle(els[0] as Element).color]);
    assert.notEqual(note, data, 'in the description colour');
    for (const label of ['Copy with Headers', 'Copy as Shown with Headers']) {
      await p.clearPosted();
      await p.page.click(`.table-block button[aria-label="${label}"]`);
      const [copy] = await p.postedOf('copyTable');
      assert.equal(copy?.tsv.split('\n')[2], '\t0.03889', `${label}: the empty value, as in the file`);
    }
    await p.screenshot('numbers-missing-key-dark.png');
  });

  it('shows separators and the column\'s decimals, years and ids as written, and marks rounded values', async () => {
    const p = await open(TOTALS);
    const got = await cells(p);
    assert.deepEqual(got.map((r) => r.map((c) => c.text)), [
      ['Europe', '250,128,206.98', '≈60.77', '2023', '1120', '12.5'],
      ['Oceania', '1,234.50', '12.30', '2024', '100226', '0.0'],
      ['Asia', '10,060.30', '0.50', '2024', '7', '≈33.3'],
    ]);
    // The full value on hover wherever the cell is rounded.
    assert.equal(got[0]?.[2]?.title, 'Exact value: 60.77015000000014');
    assert.equal(got[2]?.[5]?.title, 'Exact value: 33.3333333');
    assert.equal(got[0]?.[1]?.title, '250128206.98', 'regrouped but exact: the stored value on hover, no "exact value" claim needed');
    await p.page.hover('.grid-body .grid-row[aria-rowindex="2"] .grid-cell >> nth=2');
    await p.screenshot('numbers-table-dark.png');
  });

  it('"Copy with Headers" copies exact values; "Copy as Shown with Headers" the rounded numbers it shows', async () => {
    const p = await open(TOTALS);
    await p.clearPosted();
    await p.page.click('.table-block button[aria-label="Copy with Headers"]');
    const [exact] = await p.postedOf('copyTable');
    assert.equal(exact?.tsv, TOTALS.replace(/,/g, '\t'), 'every digit the file has');
    await p.page.waitForFunction(() => /exact values/.test(document.getElementById('announcer')?.textContent ?? ''));
    await p.clearPosted();
    await p.page.click('.table-block button[aria-label="Copy as Shown with Headers"]');
    const [shown] = await p.postedOf('copyTable');
    assert.equal(shown?.tsv, [
      'region\ttotal_revenue\tavg_temp\tyear\torder_id\tmissing_pct',
      'Europe\t250,128,206.98\t60.77\t2023\t1120\t12.5',
      'Oceania\t1,234.50\t12.30\t2024\t100226\t0.0',
      'Asia\t10,060.30\t0.50\t2024\t7\t33.3',
    ].join('\n') + '\n');
    // The announcement says which numbers were copied.
    await p.page.waitForFunction(() => /numbers rounded as shown/.test(document.getElementById('announcer')?.textContent ?? ''));
  });

  it('styles a profile table\'s figures by the column each row describes', async () => {
    const p = await open(PROFILE);
    const got = (await cells(p)).map((r) => r.slice(5, 8).map((c) => c.text));
    assert.deepEqual(got, [
      ['2023', '2024', '2023.5'],
      ['0.30', '4,998.14', '≈2,514.41'],
      ['≈0.04', '≈60.77', '30.10'],
      ['2023-01-04', '2024-12-30', ''],
      ['', '', ''],
    ]);
    await p.clearPosted();
    await p.page.click('.table-block button[aria-label="Copy with Headers"]');
    const [exact] = await p.postedOf('copyTable');
    assert.ok(exact?.tsv.includes('2514.4092037999903'), 'the profile copies exact figures too');
    await p.screenshot('numbers-profile-dark.png');
  });

  for (const theme of ['light', 'highContrast'] as const) {
    it(`reads the same in the ${theme} theme`, async () => {
      const p = await open(TOTALS, theme);
      assert.deepEqual((await cells(p))[0]?.map((c) => c.text), ['Europe', '250,128,206.98', '≈60.77', '2023', '1120', '12.5']);
      await p.screenshot(`numbers-table-${theme}.png`);
      await closeCleanly(p);
      const profile = await open(PROFILE, theme);
      assert.deepEqual((await cells(profile))[1]?.slice(5, 8).map((c) => c.text), ['0.30', '4,998.14', '≈2,514.41']);
      await profile.screenshot(`numbers-profile-${theme}.png`);
    });
  }
});
