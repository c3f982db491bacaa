/**
 * Document answers as the user reads them (the engine's MESSAGE): amounts match across spellings
 * ("over 1000 dollars" finds "above $1,000"), and a quoted passage shows its section heading as a
 * bold line and its list items with the document's own numbers, whatever the file format.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';
import { makeDocx, makePptx, POLICY_MD } from './documents';

/** The first block quote of a message, lines without the `> ` prefix. */
function firstQuote(message: string): string[] {
  const lines = message.split('\n');
  const start = lines.findIndex((l) => l.startsWith('>'));
  const out: string[] = [];
  for (const l of lines.slice(start)) {
    if (!l.startsWith('>')) break;
    out.push(l.replace(/^> ?/, ''));
  }
  return out;
}

describe('document answers: amounts across spellings, headings and list numbers kept', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({
      'policy.md': POLICY_MD,
      'steps.pptx': await makePptx([['Refund steps', 'Check the receipt.']]),
      'memo.docx': await makeDocx(['Refund memo', 'Refunds over 1,000 USD need a second signature.']),
    });
  });
  after(async () => rig.close());

  for (const q of [
    'if a refund is over 1000 dollars, who has to sign off on it?',
    'who signs off refunds above 1,000 USD?',
    'who approves a USD 1000 refund',
    'refund of 1k: who must sign it off?',
  ]) {
    it(`quotes the approval rule for "${q}", numbered as in the document`, async () => {
      const quote = firstQuote((await rig.ask(q, ['policy.md'])).message);
      assert.equal(quote[0], '**Expense and refund policy › 2. Approvals**', 'the heading is a bold line, not list item 2');
      assert.ok(quote.includes('5. Refunds above $1,000 must be signed off by the finance director.'), quote.join('\n'));
      assert.ok(quote.includes('3. Refunds up to 200 dollars are approved by the support agent.'));
    });
  }

  it('matches euros and pounds written as symbols, codes or words', async () => {
    for (const [q, want] of [['what needs approval above 500 euros?', /500 EUR/], ['hotel limit in GBP 150?', /£150/]] as const) {
      const quote = firstQuote((await rig.ask(q, ['policy.md'])).message).join('\n');
      assert.match(quote, want, q);
      assert.match(quote, /4\. Travel/, q);
    }
  });

  it('finds an amount in a Word document written another way', async () => {
    const quote = firstQuote((await rig.ask('who signs refunds above $1000?', ['memo.docx'])).message).join('\n');
    assert.match(quote, /Refunds over 1,000 USD need a second signature/);
  });
});
