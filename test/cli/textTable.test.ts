import { strict as assert } from 'node:assert';
import { displayWidth, renderTextTable } from '../../src/cli/textTable';
import { printable } from '../../src/cli/answerPrinter';

describe('renderTextTable', () => {
  it('aligns columns, right-aligns numbers and reports hidden rows', () => {
    const rows = [['region', 'revenue'], ['Europe', '1200.5'], ['Asia', '98'], ['North America', '15000']];
    const text = renderTextTable(rows, { maxRows: 2 });
    const lines = text.split('\n');
    assert.equal(lines[0], 'region  revenue');
    assert.equal(lines[2], 'Europe   1200.5');
    assert.equal(lines[3], 'Asia         98');
    assert.equal(lines[4], '… 1 more row');
  });

  it('counts wide characters as two columns and clips long cells', () => {
    assert.equal(displayWidth('日本'), 4);
    const text = renderTextTable([['k'], ['x'.repeat(100)]], { maxCellWidth: 10 });
    assert.ok(text.split('\n')[2]!.endsWith('…'));
    assert.ok(displayWidth(text.split('\n')[2]!) <= 10);
  });

  it('strips terminal escape sequences from service text', () => {
    assert.equal(printable('ok\u001b[2J\u001b]0;pwned\u0007 done\r'), 'ok done');
  });
});
