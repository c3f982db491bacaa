import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { codeFileName, fileExtension, safeFileName, wordsSlug } from '../../src/shared/fileNames';
import { fileNameFor } from '../../src/server/engine/answerWriter';

describe('safeFileName', () => {
  const hostile = [
    '../../x.csv', '..\\..\\x.csv', '/etc/passwd', 'C:\\Windows\\system.ini', 'con.csv', 'NUL', 'lpt1.txt',
    'a\u0000b.csv', `${'x'.repeat(300)}.csv`, '', '.', '..', '...', ' .hidden', 'a/b/../../c.png', 'résumé 📈.xlsx',
    'name?.csv', 'tab\there.csv', `${'é'.repeat(200)}.csv`, 'file.csv.', '%2e%2e%2fx.csv',
  ];

  it('never yields a path that leaves the target folder, and writing it works', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-'));
    try {
      for (const name of hostile) {
        const safe = safeFileName(name);
        assert.ok(safe.length > 0, `empty for ${JSON.stringify(name)}`);
        assert.ok(!safe.includes('/') && !safe.includes('\\') && !safe.includes('\u0000'), safe);
        assert.notEqual(safe, '.');
        assert.notEqual(safe, '..');
        assert.ok(Buffer.byteLength(safe) <= 120, `too long: ${safe.length}`);
        const target = resolve(dir, safe);
        assert.ok(target.startsWith(dir + sep), `${name} -> ${target}`);
        writeFileSync(target, 'x');
      }
      assert.ok(readdirSync(dir).length > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps ordinary names and extensions', () => {
    assert.equal(safeFileName('sales 2024.csv'), 'sales 2024.csv');
    assert.equal(safeFileName('../../x.csv'), 'x.csv');
    assert.equal(safeFileName('con.csv'), '_con.csv');
    assert.ok(safeFileName(`${'x'.repeat(300)}.csv`).endsWith('.csv'));
    assert.equal(safeFileName('résumé 📈.xlsx'), 'résumé 📈.xlsx');
  });

  it('fileExtension is lower-case with the dot', () => {
    assert.equal(fileExtension('/a/B.CSV'), '.csv');
    assert.equal(fileExtension('noext'), '');
    assert.equal(fileExtension('.bashrc'), '');
  });

  it('fileExtension keeps what a .gz file compresses (x.csv.gz reads as CSV)', () => {
    assert.equal(fileExtension('/a/Sales.CSV.GZ'), '.csv.gz');
    assert.equal(fileExtension('events.jsonl.gz'), '.jsonl.gz');
    assert.equal(fileExtension('v1.2.parquet'), '.parquet');
    assert.equal(fileExtension('dump.gz'), '.gz');
    assert.equal(fileExtension('.csv.gz'), '.gz');
  });
});

describe('names after a question (issue 24, point 11)', () => {
  const long = 'What is the average temperature of every weather station by month and by quarter since 2019?';

  it('"Open in Editor" names the SQL after the question, not its first comment line', () => {
    assert.equal(codeFileName('Total revenue by region?', 'sql'), 'total-revenue-by-region.sql');
    assert.equal(codeFileName('Durchschnittlicher Umsatz für Köln', 'python'), 'durchschnittlicher-umsatz-fur-koln.py');
    assert.equal(codeFileName('营业额', 'sql'), 'query.sql', 'a question without ASCII letters still names a file');
    assert.equal(codeFileName('x', 'plaintext'), 'x.txt');
  });

  it('never cuts a word in two: whole words up to the limit', () => {
    const name = codeFileName(long, 'sql');
    assert.equal(name, 'what-is-the-average-temperature-of-every-weather-station-by.sql');
    const words: string[] = long.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    for (const w of name.replace(/\.sql$/, '').split('-')) assert.ok(words.includes(w), `"${w}" is a whole word of the question`);
    assert.equal(wordsSlug('a'.repeat(80), 60), 'a'.repeat(60), 'only one over-long word is cut');
  });

  it('tables and charts of an answer are named in whole words too', () => {
    const name = fileNameFor('average temp_max by city where city is Oslo or Rome or Bergen or Trondheim', 'csv');
    assert.equal(name, 'average-temp-max-by-city-where-city-is-oslo-or-rome-or.csv');
    assert.equal(fileNameFor('total revenue by region', 'csv'), 'total-revenue-by-region.csv');
  });
});
