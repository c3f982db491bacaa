/**
 * The formats data engineers export (issue 16, item 1): Parquet, JSON Lines, and gzip-compressed
 * CSV, TSV and JSON, each uploaded through the real client to the real local service, analyzed,
 * and answered with the right numbers; the SQL the answer shows runs in DuckDB from the folder that
 * holds the file and gives the same rows. Damaged files (a gzip cut mid-stream, a Parquet file cut
 * short) end with a clear reason while another source in the same dataset still answers, and a
 * gzip bomb is refused once it inflates past the service's size limit.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { downloadFile, TeamDataClient, type Answer } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import { parseCsv } from '../../src/shared/csv';
import { runShownSql } from '../engine/engineHarness';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

const REGIONS = ['north', 'south', 'east', 'west'];
const ROWS = 1000;

/** Invented orders: region i % 4, amount in quarters, units 0..6. */
function order(i: number): { region: string; amount: number; units: number } {
  return { region: REGIONS[i % 4] as string, amount: ((i * 37) % 500) / 4, units: i % 7 };
}

function expectedTotals(): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < ROWS; i++) {
    const o = order(i);
    out.set(o.region, (out.get(o.region) ?? 0) + o.amount);
  }
  return out;
}

/** Writes the orders in every format with DuckDB itself (COPY ... TO). */
async function writeFormats(dir: string): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn = await instance.connect();
  try {
    const values = Array.from({ length: ROWS }, (_, i) => {
      const o = order(i);
      return `('${o.region}', ${o.amount}, ${o.units})`;
    });
    await conn.run(`CREATE TABLE orders (region VARCHAR, amount DOUBLE, units INTEGER)`);
    await conn.run(`INSERT INTO orders VALUES ${values.join(', ')}`);
    const to = (name: string, options: string): Promise<unknown> => conn.run(`COPY orders TO '${join(dir, name)}' (${options})`);
    await to('orders.parquet', 'FORMAT parquet');
    await to('orders.jsonl', 'FORMAT json');
    await to('orders.ndjson', 'FORMAT json');
    await to('orders.csv.gz', 'FORMAT csv, HEADER, COMPRESSION gzip');
    await to('orders.tsv.gz', `FORMAT csv, HEADER, DELIMITER '\t', COMPRESSION gzip`);
    await to('orders.jsonl.gz', 'FORMAT json, COMPRESSION gzip');
    await to('orders.json.gz', 'FORMAT json, ARRAY true, COMPRESSION gzip');
  } finally {
    conn.disconnectSync();
    instance.closeSync();
  }
}

const FORMATS: Array<{ file: string; reader: RegExp }> = [
  { file: 'orders.parquet', reader: /read_parquet\('orders\.parquet'\)/ },
  { file: 'orders.jsonl', reader: /read_json_auto\('orders\.jsonl'/ },
  { file: 'orders.ndjson', reader: /read_json_auto\('orders\.ndjson'/ },
  { file: 'orders.csv.gz', reader: /read_csv\('orders\.csv\.gz'.*compression = 'gzip'/ },
  { file: 'orders.tsv.gz', reader: /read_csv\('orders\.tsv\.gz'.*delim = '\\t'.*compression = 'gzip'/ },
  { file: 'orders.jsonl.gz', reader: /read_json_auto\('orders\.jsonl\.gz'.*compression = 'gzip'/ },
  { file: 'orders.json.gz', reader: /read_json_auto\('orders\.json\.gz'.*compression = 'gzip'/ },
  // DuckDB reads Parquet only decompressed: the SQL names the file gunzip makes (here the same rows).
  { file: 'orders.parquet.gz', reader: /gunzip -k orders\.parquet\.gz[^]*read_parquet\('orders\.parquet'\)/ },
];

describe('Parquet, JSON Lines and gzip files on the local service (issue 16)', function () {
  this.timeout(180_000);
  let h: Harness;
  let client: TeamDataClient;
  let dir: string;
  let datasetId: string;
  let sessionId: string;

  before(async () => {
    h = await startHarness();
    client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
    dir = await mkdtemp(join(tmpdir(), 'team-data-formats-'));
    await writeFormats(dir);
    await writeFile(join(dir, 'orders.parquet.gz'), gzipSync(await readFile(join(dir, 'orders.parquet'))));
    datasetId = (await client.datasets.create({ name: 'formats', description: '' })).id;
    sessionId = (await client.sessions.create({ title: 'formats' })).id;
  });
  after(async () => {
    await h?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Uploads a file of `dir` as a data source and waits until it settles; returns it. */
  async function addSource(file: string): Promise<{ id: string; status: string; error?: string }> {
    const { fileKey } = await client.files.upload(join(dir, file));
    const ds = await client.dataSources.create(datasetId, { fileName: file, fileKey });
    const settled = await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 }).then(
      (d) => ({ id: d.id, status: d.status as string }),
      async () => {
        const d = await client.dataSources.get(datasetId, ds.id);
        return { id: d.id, status: d.status as string, ...(d.error !== undefined ? { error: d.error } : {}) };
      },
    );
    return settled;
  }

  async function tableOf(answer: Answer): Promise<string[][]> {
    const block = answerBlocks(answer).filter((b) => b.type === 'TABLE').pop();
    assert.ok(block && block.type === 'TABLE', 'the answer has a table');
    const file = await downloadFile(block.content.url, join(dir, 'tables'));
    return parseCsv(await readFile(file.path, 'utf8'));
  }

  const totals = expectedTotals();

  for (const f of FORMATS) {
    it(`${f.file}: total amount by region is right, and the SQL shown runs from the file's folder`, async () => {
      const ds = await addSource(f.file);
      assert.equal(ds.status, 'synched', ds.error);
      const answer = await client.jobs.run({ sessionId, datasetId, datasourceIdList: [ds.id], question: 'total amount by region' });
      const table = await tableOf(answer);
      const got = new Map(table.slice(1).map((r) => [r[0] as string, Number(r[1])]));
      assert.deepEqual([...got.keys()].sort(), [...totals.keys()].sort(), JSON.stringify(table));
      for (const [region, total] of totals) assert.ok(Math.abs((got.get(region) ?? NaN) - total) < 1e-6, `${region}: ${String(got.get(region))} vs ${total}`);
      const code = answerBlocks(answer).filter((b) => b.type === 'CODE').map((b) => String(b.content)).pop() ?? '';
      assert.match(code, /Runs in DuckDB from the folder that holds/);
      assert.match(code, f.reader);
      const results = await runShownSql(code, dir);
      const norm = (rows: ReadonlyArray<readonly unknown[]>): string => rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join('|')).sort().join('\n');
      assert.ok(results.some((r) => norm(r.rows) === norm(table.slice(1))), `the shown SQL gives other rows:\n${code}`);
    });
  }

  it('a gzip cut mid-stream and a Parquet file cut short fail with a clear reason; another source still answers', async () => {
    const gz = await readFile(join(dir, 'orders.csv.gz'));
    await writeFile(join(dir, 'cut.csv.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    const parquet = await readFile(join(dir, 'orders.parquet'));
    await writeFile(join(dir, 'cut.parquet'), parquet.subarray(0, Math.floor(parquet.length * 0.7)));
    const mangled = Buffer.from(parquet);
    mangled.fill(0x55, 8, Math.min(mangled.length - 64, 600));
    await writeFile(join(dir, 'mangled.parquet'), mangled);
    const notGzip = Buffer.from('region,amount\nnorth,1\n');
    await writeFile(join(dir, 'plain.csv.gz'), notGzip);

    const cutGz = await addSource('cut.csv.gz');
    assert.equal(cutGz.status, 'invalid');
    assert.match(cutGz.error ?? '', /cut\.csv\.gz is cut short: its gzip data ends before the file does/);
    const cutParquet = await addSource('cut.parquet');
    assert.equal(cutParquet.status, 'invalid');
    assert.match(cutParquet.error ?? '', /cut\.parquet is cut short/);
    const bad = await addSource('mangled.parquet');
    assert.equal(bad.status, 'invalid');
    assert.match(bad.error ?? '', /could not read mangled\.parquet as Parquet/);
    assert.ok(!(bad.error ?? '').includes(h.dataDir), 'the data folder path leaked into the reason');
    const plain = await addSource('plain.csv.gz');
    assert.equal(plain.status, 'invalid');
    assert.match(plain.error ?? '', /plain\.csv\.gz is damaged: its gzip data cannot be decompressed/);

    const good = await addSource('orders.csv.gz');
    assert.equal(good.status, 'synched');
    const answer = await client.jobs.run({ sessionId, datasetId, datasourceIdList: [good.id], question: 'total amount by region' });
    const table = await tableOf(answer);
    assert.equal(table.length, 1 + REGIONS.length);
  });

  it('a gzip bomb is refused once it inflates past what the service accepts as one file', async () => {
    // The service accepts uploads up to 4 MB here, so a gzip file may inflate to 4 MB, no more.
    const small = await startHarness({ maxUploadBytes: 4 * 1024 * 1024 });
    try {
      const c = new TeamDataClient({ baseUrl: small.baseUrl, apiKey: TEST_KEY, userId: USER });
      const bomb = gzipSync(Buffer.concat([Buffer.from('a,b\n'), Buffer.alloc(64 * 1024 * 1024, '1,2\n')]), { level: 9 });
      assert.ok(bomb.length < 1024 * 1024, `${bomb.length} bytes`);
      await writeFile(join(dir, 'bomb.csv.gz'), bomb);
      const dsId = (await c.datasets.create({ name: 'bomb', description: '' })).id;
      const { fileKey } = await c.files.upload(join(dir, 'bomb.csv.gz'));
      const ds = await c.dataSources.create(dsId, { fileName: 'bomb.csv.gz', fileKey });
      await c.dataSources.waitUntilSynched(dsId, ds.id, { intervalMs: 50 }).catch(() => undefined);
      const settled = await c.dataSources.get(dsId, ds.id);
      assert.equal(settled.status, 'invalid');
      assert.match(settled.error ?? '', /bomb\.csv\.gz expands to more than 4\.2 MB when decompressed/);
      // The service still reads a modest gzip file.
      const { fileKey: okKey } = await c.files.upload(join(dir, 'orders.csv.gz'));
      const ok = await c.dataSources.create(dsId, { fileName: 'orders.csv.gz', fileKey: okKey });
      assert.equal((await c.dataSources.waitUntilSynched(dsId, ok.id, { intervalMs: 50 })).status, 'synched');
    } finally {
      await small.stop();
    }
  });
});
