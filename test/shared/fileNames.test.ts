import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileExtension, safeFileName } from '../../src/shared/fileNames';

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
