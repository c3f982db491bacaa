/**
 * Converting Parquet, JSON Lines and gzip files to CSV for a hosted service (issue 16, item 1):
 * the CSV holds the same rows and columns (nested ones flattened as the local service does), a
 * damaged file fails with the local service's reason, a cancel leaves no file behind, and the
 * `team-data convert` command the extension runs prints its progress as JSON lines.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { copyFile, readdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { IngestError } from '../../src/server/engine';
import { convertToCsv } from '../../src/server/duckdb/csvConvert';
import { convertedCsvName as convertedName } from '../../src/shared/fileNames';
import { parseCsv } from '../../src/shared/csv';

const ROOT = join(__dirname, '..', '..');

async function duck(sql: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn = await instance.connect();
  try {
    for (const s of sql) await conn.run(s);
  } finally {
    conn.disconnectSync();
    instance.closeSync();
  }
}

describe('conversion to CSV for hosted services', function () {
  this.timeout(120_000);
  let dir: string;
  const q = (name: string): string => `'${join(dir, name)}'`;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-convert-'));
    await duck([
      `CREATE TABLE t AS SELECT range AS id, ['north', 'south'][range % 2 + 1] AS region, range * 1.5 AS amount,
         {'city': 'c' || range, 'zip': 1000 + range} AS place FROM range(5000)`,
      `COPY t TO ${q('orders.parquet')} (FORMAT parquet)`,
      `COPY (SELECT id, region, amount FROM t) TO ${q('orders.csv.gz')} (FORMAT csv, HEADER, COMPRESSION gzip)`,
      `COPY t TO ${q('orders.jsonl.gz')} (FORMAT json, COMPRESSION gzip)`,
    ]);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('names the CSV after the file without its format and compression', () => {
    assert.equal(convertedName('/x/events.parquet'), 'events.csv');
    assert.equal(convertedName('events.jsonl.gz'), 'events.csv');
    assert.equal(convertedName('Sales.CSV.GZ'), 'Sales.csv');
  });

  for (const file of ['orders.parquet', 'orders.jsonl.gz']) {
    it(`${file}: every row, nested fields as their own columns, progress up to 100%`, async () => {
      const out = join(dir, 'out', `${file}.csv`);
      const seen: Array<number | undefined> = [];
      const { rows } = await convertToCsv(join(dir, file), out, { onProgress: (_phase, f) => seen.push(f) });
      assert.equal(rows, 5000);
      const table = parseCsv(await readFile(out, 'utf8'));
      assert.deepEqual(table[0], ['id', 'region', 'amount', 'place.city', 'place.zip']);
      assert.equal(table.length, 5001);
      assert.deepEqual(table[8], ['7', 'south', '10.5', 'c7', '1007']);
      const total = table.slice(1).reduce((s, r) => s + Number(r[2]), 0);
      assert.equal(total, 1.5 * (4999 * 5000) / 2);
      assert.equal(seen[seen.length - 1], 1);
    });
  }

  it('refuses a path DuckDB would read as a pattern (it could match other files)', async () => {
    await copyFile(join(dir, 'orders.parquet'), join(dir, 'orders[1].parquet'));
    const out = join(dir, 'out', 'glob.csv');
    await assert.rejects(convertToCsv(join(dir, 'orders[1].parquet'), out), /its path holds one of \* \? \[ \] \{ \}/);
    assert.equal(existsSync(out), false);
  });

  it('orders.csv.gz: the same rows, uncompressed', async () => {
    const out = join(dir, 'out', 'plain.csv');
    await convertToCsv(join(dir, 'orders.csv.gz'), out);
    const table = parseCsv(await readFile(out, 'utf8'));
    assert.deepEqual(table[0], ['id', 'region', 'amount']);
    assert.equal(table.length, 5001);
  });

  it('orders.parquet.gz: the rows of the Parquet inside, its inflated copy removed; an .xlsx.gz is only to be decompressed', async () => {
    await writeFile(join(dir, 'orders.parquet.gz'), gzipSync(await readFile(join(dir, 'orders.parquet'))));
    const out = join(dir, 'pq', 'orders.csv');
    assert.equal((await convertToCsv(join(dir, 'orders.parquet.gz'), out)).rows, 5000);
    const table = parseCsv(await readFile(out, 'utf8'));
    assert.deepEqual(table[8], ['7', 'south', '10.5', 'c7', '1007']);
    assert.deepEqual(await readdir(join(dir, 'pq')), ['orders.csv']);
    await writeFile(join(dir, 'book.xlsx.gz'), gzipSync(Buffer.from('x')));
    await assert.rejects(convertToCsv(join(dir, 'book.xlsx.gz'), join(dir, 'pq', 'book.csv')), /book\.xlsx\.gz needs no conversion to CSV: decompress it to book\.xlsx/);
  });

  it('refuses a gzip cut mid-stream and a Parquet file cut short with the local service\'s reasons, leaving no output', async () => {
    const gz = await readFile(join(dir, 'orders.csv.gz'));
    await writeFile(join(dir, 'cut.csv.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    const parquet = await readFile(join(dir, 'orders.parquet'));
    await writeFile(join(dir, 'cut.parquet'), parquet.subarray(0, parquet.length - 100));
    const out = join(dir, 'bad', 'x.csv');
    await assert.rejects(convertToCsv(join(dir, 'cut.csv.gz'), out), (e: unknown) => e instanceof IngestError && /cut\.csv\.gz is cut short/.test(e.message));
    await assert.rejects(convertToCsv(join(dir, 'cut.parquet'), out), (e: unknown) => e instanceof IngestError && /cut\.parquet is cut short/.test(e.message));
    await assert.rejects(convertToCsv(join(dir, 'orders.csv.gz').replace('.csv.gz', '.csv'), out), /needs no conversion/);
    assert.deepEqual(await readdir(join(dir, 'bad')).catch(() => []), []);
  });

  it('stops when cancelled and leaves neither the CSV nor a part file', async () => {
    await duck([`COPY (SELECT range AS id, md5(range::VARCHAR) AS h FROM range(3000000)) TO ${q('big.parquet')} (FORMAT parquet)`]);
    const ac = new AbortController();
    const out = join(dir, 'cancel', 'big.csv');
    const run = convertToCsv(join(dir, 'big.parquet'), out, {
      signal: ac.signal,
      onProgress: (phase) => {
        if (phase === 'converting') ac.abort(new Error('cancelled by the test'));
      },
    });
    await assert.rejects(run, /cancelled by the test/);
    assert.deepEqual((await readdir(join(dir, 'cancel'))).filter((f) => !f.startsWith('.spill')), []);
  });

  it('team-data convert prints progress as JSON lines and ends with the row count', async () => {
    const out = join(dir, 'cli', 'orders.csv');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'convert', join(dir, 'orders.parquet'), '--out', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[lines.length - 1], { done: true, rows: 5000 });
    assert.ok(lines.some((l) => l['phase'] === 'converting'), stdout);
    assert.equal(parseCsv(await readFile(out, 'utf8')).length, 5001);
  });
});
