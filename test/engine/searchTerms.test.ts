/**
 * Search terms spell every amount one way, so a question and a passage that write the same
 * amount differently share their terms; versions, sections and paths stay whole.
 */
import { strict as assert } from 'node:assert';
import { searchTokens } from '../../src/server/engine/searchTerms';

const terms = (text: string): string => searchTokens(text).join(' ');

describe('search terms: numbers and money across spellings', () => {
  it('writes dollars, euros and pounds as a plain number and an ISO code', () => {
    for (const t of ['$1,000', '1000 dollars', '1,000 USD', 'USD 1000', '1k dollars', 'a thousand dollars', '$1,000.00']) {
      assert.deepEqual(searchTokens(t).sort(), ['1000', 'usd'], t);
    }
    for (const t of ['€2,500.50', '2.500,50 EUR', '2500.50 euros']) assert.deepEqual(searchTokens(t).sort(), ['2500.50', 'eur'], t);
    for (const t of ['£150', '150 GBP', '150 pounds']) assert.deepEqual(searchTokens(t).sort(), ['150', 'gbp'], t);
    assert.equal(terms('2 million euros or 1.5m'), '2000000 eur or 1500000');
  });

  it('keeps versions, section numbers, ranges and paths whole (and their parts searchable)', () => {
    assert.equal(terms('3.4.2. Requirements, version 3.10'), '3.4.2 Requirements version 3.10');
    assert.equal(terms('^1.2.3 or ~1.2'), '^1.2.3 1.2.3 or ~1.2 1.2');
    assert.equal(terms('what is /opt for, not /var/opt/'), 'what is /opt opt for not /var/opt var opt');
    assert.equal(terms('10km on the 1st, 1,2,3'), '10 km on the 1 st 1 2 3');
  });
});
