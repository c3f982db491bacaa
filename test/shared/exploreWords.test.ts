/** The explorer's filters as the engine's words (shared/exploreWords.ts): what is said, and what cannot be. */
import { strict as assert } from 'node:assert';
import type { ExploreColumn, ExploreFilter } from '../../src/shared/explore';
import { describeFilter, filterPhrase, filterWords, questionWithFilters } from '../../src/shared/exploreWords';

const COLS: ExploreColumn[] = [
  { name: 'city', type: 'VARCHAR', kind: 'text' },
  { name: 'qty', type: 'DOUBLE', kind: 'number' },
  { name: 'at', type: 'TIMESTAMP', kind: 'datetime' },
  { name: 'odd`name', type: 'VARCHAR', kind: 'text' },
];

describe('explorer filters in the engine\'s words', () => {
  it('writes each filter as the grammar writes it', () => {
    assert.equal(filterPhrase({ column: 'city', op: 'in', values: ['Lyon', 'Oslo'] }, COLS), 'where `city` is "Lyon" or "Oslo"');
    assert.equal(filterPhrase({ column: 'qty', op: 'between', min: 1.5, max: '5' }, COLS), 'where `qty` between 1.5 and 5');
    assert.equal(filterPhrase({ column: 'qty', op: 'in', values: ['2', '3.25'] }, COLS), 'where `qty` = 2 or 3.25');
    assert.equal(filterPhrase({ column: 'city', op: 'missing' }, COLS), 'where `city` is missing');
    assert.equal(filterPhrase({ column: 'city', op: 'missing', negate: true }, COLS), 'with known `city`');
    assert.equal(filterPhrase({ column: 'at', op: 'between', min: '2024-01-01', max: '2024-01-31' }, COLS), '`at` from 2024-01-01 to 2024-01-31');
    assert.equal(filterPhrase({ column: 'at', op: 'between', max: '2024-12-31' }, COLS), '`at` before 2025-01-01');
  });

  it('has no words for what would change meaning when said', () => {
    const unsayable: ExploreFilter[] = [
      { column: 'city', op: 'startsWith', text: 'L' },
      { column: 'city', op: 'regex', text: 'L.*' },
      { column: 'city', op: 'contains', text: 'L', caseSensitive: true },
      // The view matches any part of a value, the engine's "contains" whole words: other rows.
      { column: 'city', op: 'contains', text: 'ly' },
      { column: 'city', op: 'contains', text: 'ly', negate: true },
      { column: 'city', op: 'in', values: ['say "hi"'] },
      { column: 'odd`name', op: 'missing' },
      { column: 'qty', op: 'in', values: ['2'], negate: true },
      { column: 'at', op: 'between', min: '2024-01-01T10:00:00' },
      { column: 'city', op: 'between', min: 'a', max: 'b' },
    ];
    for (const f of unsayable) assert.equal(filterPhrase(f, COLS), undefined, JSON.stringify(f));
  });

  it('joins the stated filters and names the rest', () => {
    const w = filterWords([{ column: 'city', op: 'in', values: ['Lyon'] }, { column: 'city', op: 'startsWith', text: 'L' }, { column: 'qty', op: 'between', min: 3 }], COLS);
    assert.equal(w.words, 'where `city` is "Lyon" and where `qty` >= 3');
    assert.deepEqual(w.unstated, ['`city` starts with "L"']);
    assert.equal(describeFilter({ column: 'qty', op: 'between', max: 4 }), '`qty` between … and 4');
  });

  it('appends the words before the question\'s final mark', () => {
    assert.equal(questionWithFilters('  total `qty` by `city`?? ', 'where `city` is "Lyon"'), 'total `qty` by `city` where `city` is "Lyon"??');
    assert.equal(questionWithFilters('total `qty`', ''), 'total `qty`');
  });
});
