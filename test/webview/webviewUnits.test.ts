/**
 * The webview's pure pieces in plain Node: markdown chunking (stream == whole), table sorting,
 * TSV, code fences, language ids and the local-image check.
 */
import { strict as assert } from 'node:assert';
import { MarkdownChunker, splitMarkdown } from '../../src/shared/mdChunks';
import { isNumericColumn, sortOrder } from '../../src/webview/blocks/tableSort';
import { toTsv } from '../../src/webview/blocks/tsv';
import { columnFormat, showCell } from '../../src/shared/cellFormat';
import { parseFence } from '../../src/webview/blocks/codeBlock';
import { cleanLanguage, vscodeLanguageId } from '../../src/webview/blocks/highlight';
import { altText, isLocalResource } from '../../src/webview/blocks/imageBlock';
import { fragments, sampleMarkdown } from './markdownSample';

describe('markdown chunking', () => {
  it('splits at blank lines before a new block; never inside fences, before list items or indented lines', () => {
    const text = [
      '# Title', '', 'First para', 'continues.', '',
      '```python', 'a = 1', '', 'b = 2', '```', '',
      '- one', '', '- two', '  more', '', 'After list.', '',
      '    indented code', '', 'End.',
    ].join('\n');
    assert.deepEqual(splitMarkdown(text), [
      '# Title\n\n',
      'First para\ncontinues.\n\n',
      // A list item after a blank line joins the chunk before it (a loose list stays one list).
      '```python\na = 1\n\nb = 2\n```\n\n- one\n\n- two\n  more\n\n',
      // A line is only judged once it is complete, so the unterminated last line stays pending.
      'After list.\n\n    indented code\n\nEnd.',
    ]);
    assert.deepEqual(splitMarkdown(`${text}\n`).slice(-2), ['After list.\n\n    indented code\n\n', 'End.\n']);
    assert.equal(splitMarkdown(text).join(''), text);
  });

  it('an unclosed fence keeps everything after it in one chunk', () => {
    const text = 'intro\n\n~~~\ncode\n\n\nstill code\n';
    assert.deepEqual(splitMarkdown(text), ['intro\n\n', '~~~\ncode\n\n\nstill code\n']);
  });

  it('streaming at any split points gives exactly the chunks of the whole text', () => {
    const text = sampleMarkdown(60_000, 3);
    const whole = splitMarkdown(text);
    for (const count of [1, 7, 500, 5000]) {
      const c = new MarkdownChunker();
      const streamed: string[] = [];
      for (const f of fragments(text, count, count)) streamed.push(...c.push(f));
      if (c.pending) streamed.push(c.pending);
      assert.deepEqual(streamed, whole, `${count} fragments`);
    }
    assert.ok(whole.length > 100);
  });

  it('bounds the unfinished text: a very long list still splits once it is large', () => {
    const items = Array.from({ length: 5000 }, (_, i) => `- item ${i} with some words`).join('\n\n');
    const chunks = splitMarkdown(items);
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.ok(chunks.every((c) => c.length < 40 * 1024));
    assert.equal(chunks.join(''), items);
  });
});

describe('numbers in tables', () => {
  const col = (...cells: string[]): string[][] => cells.map((c) => [c]);
  /** Cells of one column called `name` as the grid shows them, `≈` marking rounded ones. */
  const shown = (name: string, ...cells: string[]): string[] => {
    const style = columnFormat(name, col(...cells), 0);
    return cells.map((c) => { const s = showCell(c, style); return s.rounded ? `≈${s.text}` : s.text; });
  };

  it('shows amounts with thousands separators and the column\'s decimals, never a rounded value that looks exact', () => {
    // Issue 24: "Europe 250128207.0" was shown for 250,128,206.98.
    assert.deepEqual(shown('total_revenue', '250128206.98', '1234.5', '99'), ['250,128,206.98', '1,234.50', '99.00']);
    assert.deepEqual(shown('amount', '14.99000000000008', '9.5', '120'), ['14.99', '9.50', '120.00']);
    assert.deepEqual(shown('orders', '1200', '31', '1830'), ['1,200', '31', '1,830']);
    assert.deepEqual(shown('avg_revenue', '2514.4092037999903', '100.5'), ['≈2,514.41', '100.50']);
  });

  it('keeps years and ids as written, rounds measurements to four significant digits with a mark', () => {
    assert.deepEqual(shown('year', '2023', '2024'), ['2023', '2024']);
    assert.deepEqual(shown('order_id', '1120', '100226'), ['1120', '100226']);
    assert.deepEqual(shown('temp_mean', '60.77015000000014', '12.3'), ['≈60.77', '12.30']);
    assert.deepEqual(shown('correlation', '0.039388794567062804', '0.051'), ['≈0.03939', '0.05100']);
    assert.deepEqual(shown('v', '-0.0001', '12.3'), ['≈0.00', '12.30']);
  });

  it('leaves text, formatted numbers, mixed columns and huge integers as written', () => {
    assert.deepEqual(shown('x', '1,234.5678', '2.5'), ['1,234.5678', '2.5']);
    assert.deepEqual(shown('x', '12.3456789', 'n/a'), ['12.3456789', 'n/a']);
    assert.deepEqual(shown('x', '45.5%', '3.25%'), ['45.5%', '3.25%']);
    assert.deepEqual(shown('big', '12345678901234567890', '1'), ['12345678901234567890', '1']);
    assert.deepEqual(shown('x', '', '1.25', ''), ['', '1.25', '']);
  });

  it('copies exact values, or the numbers as shown when asked', () => {
    const rows = [['a', '14.99000000000008'], ['b', '0.5']];
    const style = columnFormat('v', rows, 1);
    assert.equal(toTsv(['k', 'v'], rows), 'k\tv\na\t14.99000000000008\nb\t0.5\n');
    assert.equal(toTsv(['k', 'v'], rows, undefined, (row, i) => (i === 1 ? showCell(row[i] ?? '', style).text : row[i] ?? '')), 'k\tv\na\t14.99\nb\t0.50\n');
  });
});

describe('table sorting and copying', () => {
  const rows = [['b', '10', ''], ['a', '9', 'x'], ['c', '', 'y'], ['a', '1,000.5', 'z'], ['B', '-2', 'w'], ['a2', '9', 'v']];

  it('detects numeric columns (thousands separators, signs, empties allowed)', () => {
    assert.equal(isNumericColumn(rows, 1), true);
    assert.equal(isNumericColumn(rows, 0), false);
    assert.equal(isNumericColumn([['1'], ['2.5e3'], ['50%']], 0), true);
    assert.equal(isNumericColumn([[''], ['']], 0), false);
    assert.equal(isNumericColumn([['1'], ['1.2.3']], 0), false);
  });

  it('sorts numbers by value, stably, empties last in both directions', () => {
    assert.deepEqual([...sortOrder(rows, 1, false)], [4, 1, 5, 0, 3, 2]);
    assert.deepEqual([...sortOrder(rows, 1, true)], [3, 0, 1, 5, 4, 2]);
  });

  it('sorts text case-insensitively with numbers inside compared by value, stably', () => {
    const names = [['file 10'], ['File 9'], ['file 9'], ['file 1'], ['']];
    assert.deepEqual([...sortOrder(names, 0, false)], [3, 1, 2, 0, 4]);
    assert.deepEqual([...sortOrder(names, 0, true)], [0, 1, 2, 3, 4]);
  });

  it('builds TSV with headers in display order, quoting cells that would break it', () => {
    const tsv = toTsv(['name', 'note'], [['a', 'x\ty'], ['b', 'say "hi"\nbye'], ['c']], [2, 0, 1]);
    assert.equal(tsv, 'name\tnote\nc\t\na\t"x\ty"\nb\t"say ""hi""\nbye"\n');
  });
});

describe('code fences and languages', () => {
  it('splits a fenced CODE block into language and code', () => {
    assert.deepEqual(parseFence('```sql\nSELECT 1\n```'), { language: 'sql', code: 'SELECT 1' });
    assert.deepEqual(parseFence('\n```Python extra\r\nprint(1)\r\n\r\nx\r\n```\n'), { language: 'python', code: 'print(1)\n\nx' });
    assert.deepEqual(parseFence('~~~~r\nx <- 1\n~~~~'), { language: 'r', code: 'x <- 1' });
    assert.deepEqual(parseFence('```js\nunterminated()'), { language: 'js', code: 'unterminated()' });
    assert.deepEqual(parseFence('plain code'), { language: '', code: 'plain code' });
    assert.deepEqual(parseFence('```\n```'), { language: '', code: '' });
  });

  it('reduces fence languages to safe labels and maps them to VS Code language ids', () => {
    assert.equal(cleanLanguage('<img src=x onerror=alert(1)>'), 'img');
    assert.equal(cleanLanguage('"><script>'), 'script');
    assert.equal(cleanLanguage(' C++ {.class}'), 'c++');
    assert.equal(vscodeLanguageId('py'), 'python');
    assert.equal(vscodeLanguageId('sh'), 'shellscript');
    assert.equal(vscodeLanguageId('duckdb'), 'sql');
    assert.equal(vscodeLanguageId('yml'), 'yaml');
    assert.equal(vscodeLanguageId('rust'), 'rust');
    assert.equal(vscodeLanguageId(''), 'plaintext');
    assert.equal(vscodeLanguageId('md'), 'markdown');
  });
});

describe('local images', () => {
  const roots = ['https://file+.vscode-resource.vscode-cdn.net/home/u/.vscode/ext/cache/'];

  it('accepts only URIs under a resource root', () => {
    assert.equal(isLocalResource(`${roots[0]}ab12.png`, roots), true);
    assert.equal(isLocalResource(`${roots[0]}sub/ab12.png`, roots), true);
    for (const bad of [
      'https://files.example/chart.png', `${roots[0]}../secret.png`, `${roots[0]}%2e%2e/secret.png`, `${roots[0]}a\\b.png`,
      'javascript:alert(1)', 'data:image/png;base64,AAAA', roots[0]!.slice(0, -1) + 'x/evil.png', `${roots[0]} x.png`,
    ]) assert.equal(isLocalResource(bad, roots), false, bad);
    assert.equal(isLocalResource(`${roots[0]}a.png`, []), false, 'no roots, no images');
  });

  it('derives alt text from the file name', () => {
    assert.equal(altText('revenue_by-region.png'), 'revenue by region');
    assert.equal(altText('.png'), 'Chart');
  });
});
