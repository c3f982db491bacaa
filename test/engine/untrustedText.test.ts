/**
 * Values and names from a file are text in every answer (issue 12): rendered with the panel's own
 * Markdown library, a cell or file name holding HTML, emphasis or a link shows as written — no
 * element, no bold, no link — and the file name keeps its whole text (not just ".csv").
 */
import { strict as assert } from 'node:assert';
import { Marked } from 'marked';
import { startRig, type EngineRig } from './engineHarness';

const NAME = '<svg onload=alert(1)>.csv';
const ROWS = [
  ['<img src=x onerror=alert(1)>', '**bold**', '10', '2024-01-05'], ['Europe', '[x](javascript:alert(1))', '20', '2024-02-05'],
  ['_it_', '<b>hi</b>', '5', '2024-03-05'], ['Europe', '&lt;amp', '7', '2024-04-05'],
];
const CSV = `region,product,amount,day\n${ROWS.map((r) => r.join(',')).join('\n')}\n`;

describe('answers show data as text, never as markup (issue 12)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  const marked = new Marked({ gfm: true });
  before(async () => {
    rig = await startRig({ [NAME]: CSV });
  });
  after(async () => rig?.close());

  for (const q of ['Give me an overview of this data', 'total amount by region', 'which product has the highest amount', 'show the rows where region is Europe', 'average wobble by flux']) {
    it(`"${q}"`, async () => {
      const a = await rig.ask(q, [NAME]);
      const html = marked.parse(a.message) as string;
      for (const markup of ['<img', '<svg', '<b>', '<em>', '<strong>bold</strong>', 'href=', '<strong><']) assert.ok(!html.includes(markup), `${markup} in: ${html}`);
      // "&lt;amp" in a cell stays that text (the ampersand is not read as an entity).
      if (html.includes('amp')) assert.ok(html.includes('&amp;lt;amp'), html);
      if (a.message.includes('.csv')) assert.ok(html.includes('&lt;svg onload=alert(1)&gt;.csv'), `the file name is shown whole: ${html}`);
    });
  }
});
