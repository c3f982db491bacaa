import { strict as assert } from 'node:assert';
import { formatCsv, parseCsv } from '../../src/shared/csv';

describe('csv', () => {
  it('parses quotes, embedded newlines, CRLF, BOM and a missing final newline', () => {
    const text = '\ufeffa,b,c\r\n1,"x, y","line1\nline2"\r\n2,"say ""hi""",\n3,,z';
    assert.deepEqual(parseCsv(text), [
      ['a', 'b', 'c'],
      ['1', 'x, y', 'line1\nline2'],
      ['2', 'say "hi"', ''],
      ['3', '', 'z'],
    ]);
  });

  it('round-trips through formatCsv', () => {
    const rows = [['name', 'note'], ['a,b', 'he said "no"'], [' lead', 'multi\nline'], ['日本', '']];
    assert.deepEqual(parseCsv(formatCsv(rows)), rows);
  });

  it('parses tab-separated text', () => {
    assert.deepEqual(parseCsv('a\tb\n1\t2\n', '\t'), [['a', 'b'], ['1', '2']]);
  });
});
