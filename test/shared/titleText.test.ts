import { strict as assert } from 'node:assert';
import { cutAtWord, uniqueTitle } from '../../src/shared/titleText';

describe('titles cut at a word boundary (issue 13)', () => {
  it('never cuts inside a word or a number, and marks the cut', () => {
    // Defect: a 30-character cut titled a session "…revenue by month in 202".
    const q = 'What was the total revenue by month in 2024 for Europe?';
    for (let max = 12; max < q.length; max++) {
      const t = cutAtWord(q, max);
      assert.ok(Array.from(t).length <= max, `${t} fits ${max}`);
      assert.ok(t.endsWith('…'), t);
      const words = t.slice(0, -1).split(' ');
      for (const w of words) assert.ok(q.split(' ').includes(w) || q.split(' ').some((x) => x.replace(/[?,]/g, '') === w), `"${w}" is a whole word of the question (max ${max}): ${t}`);
    }
  });

  it('keeps short text whole and collapses whitespace', () => {
    assert.equal(cutAtWord('  Analyze   sales.csv ', 40), 'Analyze sales.csv');
    assert.equal(cutAtWord('Analyze sales.csv, targets.xlsx, refunds.md', 30), 'Analyze sales.csv…');
  });

  it('numbers a title that sessions already carry', () => {
    assert.equal(uniqueTitle('Analyze sales.csv', ['Other']), 'Analyze sales.csv');
    assert.equal(uniqueTitle('Analyze sales.csv', ['Analyze sales.csv']), 'Analyze sales.csv (2)');
    assert.equal(uniqueTitle('Analyze sales.csv', ['Analyze sales.csv', 'Analyze sales.csv (2)']), 'Analyze sales.csv (3)');
  });
});
