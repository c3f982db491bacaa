/**
 * Hostile files against a real child-process service: each is uploaded as a data source, the
 * service must end it `synched` or `invalid` with a clear reason, answer an overview of what it
 * accepted, and survive. Prints files tried / crashes / peak RSS per case (target: 0 crashes, RSS
 * under 2 GB with the default memory limit). Each case reproduces a defect that crashed or wedged
 * the service before (issue 12): deep JSON (SIGSEGV, endless CPU), an XLSX zip bomb (heap out), a
 * 10,000-column CSV (15 GB overview).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { call, exited, killHard, startChild, uploadSource, watchPeakRss, type Child, type Rec } from '../helpers/childService';
import { eventually, USER } from '../helpers/serverHarness';

interface ZipPart {
  name: string;
  data: Buffer;
  /** The uncompressed size written in the headers (a bomb lies here). */
  declared?: number;
}

/** A ZIP archive (deflate) written by hand, so headers can declare what the test wants. */
function zip(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const body = deflateRawSync(p.data, { level: 9 });
    const crc = crc32(p.data);
    const size = p.declared ?? p.data.length;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt16LE(8, 8);
    lh.writeUInt32LE(crc, 14); lh.writeUInt32LE(body.length, 18); lh.writeUInt32LE(size, 22); lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt16LE(8, 10);
    ch.writeUInt32LE(crc, 16); ch.writeUInt32LE(body.length, 20); ch.writeUInt32LE(size, 24); ch.writeUInt16LE(name.length, 28); ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, body);
    central.push(ch, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(parts.length, 8); end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A well-formed workbook whose one sheet inflates to about `sheetBytes` (declared as 4 KB). */
function xlsxBomb(sheetBytes: number): Buffer {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}"><sheetData>`);
  const tail = Buffer.from('</sheetData></worksheet>');
  const row = Buffer.from('<row><c t="n"><v>1</v></c><c t="n"><v>2</v></c></row>');
  const rows = Math.floor(sheetBytes / row.length);
  const sheet = Buffer.alloc(head.length + rows * row.length + tail.length);
  head.copy(sheet, 0);
  sheet.fill(row, head.length, head.length + rows * row.length);
  tail.copy(sheet, head.length + rows * row.length);
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`) },
    { name: '_rels/.rels', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`) },
    { name: 'xl/workbook.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`) },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declared: 4096 },
  ]);
}

function wideCsv(cols: number, rows: number): string {
  const lines = [Array.from({ length: cols }, (_, c) => `c${c}`).join(',')];
  for (let r = 0; r < rows; r++) lines.push(Array.from({ length: cols }, (_, c) => String((r * 31 + c * 7) % 97)).join(','));
  return lines.join('\n');
}

/** Parquet whose footer declares `declared` schema elements and holds `present` (empty) ones. */
function lyingParquet(declared: number, present: number): Buffer {
  const count: number[] = [];
  for (let n = declared; ; n = Math.floor(n / 128)) {
    count.push(n >= 128 ? (n % 128) | 0x80 : n);
    if (n < 128) break;
  }
  // FileMetaData { 1: version = 1, 2: list<struct> of `declared` } in Thrift's compact protocol.
  const footer = Buffer.concat([Buffer.from([0x15, 0x02, 0x19, 0xfc, ...count]), Buffer.alloc(present + 1)]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length, 0);
  return Buffer.concat([Buffer.from('PAR1'), footer, len, Buffer.from('PAR1')]);
}

/** A Parquet file of `cols` columns (numbers, short text, decimals in turn) and `rows` rows, written by DuckDB. */
async function wideParquet(cols: number, rows: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-wide-'));
  const path = join(dir, 'wide.parquet');
  const db = await DuckDBInstance.create(':memory:');
  try {
    const conn = await db.connect();
    const select = Array.from({ length: cols }, (_, k) => (k % 3 === 0 ? `(i * ${k + 7}) % 97` : k % 3 === 1 ? `'v' || ((i + ${k}) % 13)` : `((i * ${k}) % 1000) / 10.0`) + ` AS c${k}`);
    await conn.run(`COPY (SELECT ${select.join(', ')} FROM range(${rows}) t(i)) TO '${path}' (FORMAT parquet)`);
    conn.disconnectSync();
    return await readFile(path);
  } finally {
    db.closeSync();
    await rm(dir, { recursive: true, force: true });
  }
}

interface Case {
  name: string;
  /** The file's contents (built lazily: some are large). */
  make(): Buffer | string | Promise<Buffer>;
  /** `synched` (the overview must then answer) or the reason an `invalid` source must give. */
  expect: 'synched' | RegExp;
}

const CASES: Case[] = [
  { name: 'deep-100k.json', make: () => '['.repeat(100_000) + ']'.repeat(100_000), expect: /levels deep/ },
  { name: 'deep-3000.json', make: () => '{"a":'.repeat(3000) + '1' + '}'.repeat(3000), expect: /levels deep/ },
  { name: 'bomb.xlsx', make: () => xlsxBomb(450 * 1024 * 1024), expect: /expands to more than/ },
  { name: 'wide.csv', make: () => wideCsv(10_000, 60), expect: 'synched' },
  { name: 'long-line.csv', make: () => `a,b\n1,${'x'.repeat(40 * 1024 * 1024)}\n2,y\n`, expect: /a line is longer than 2 MB/ },
  // One 40 MB line: DuckDB took 65 s and 5.5 GB on a 500 MB one before failing (issue 25).
  { name: 'long-line.jsonl', make: () => `{"a":1}\n{"a":"${'x'.repeat(40 * 1024 * 1024)}"}\n{"a":2}\n`, expect: /a record is longer than 17 MB/ },
  { name: 'sparse.csv', make: () => `a,b,c,d\n${',,,\n'.repeat(400_000)}1,,,2\n`, expect: 'synched' },
  { name: 'corrupt-gzip.csv', make: () => gzipSync(Buffer.from('a,b\n1,2\n'.repeat(10_000))).subarray(0, 300), expect: /gzip|compressed|not a CSV/i },
  // Read as gzip by name: DuckDB alone would return the rows before the cut without a word (issue 16).
  { name: 'cut-mid-stream.csv.gz', make: () => gzipSync(Buffer.from('a,b\n1,2\n'.repeat(100_000))).subarray(0, 600), expect: /is cut short: its gzip data ends/ },
  { name: 'cut.jsonl.gz', make: () => gzipSync(Buffer.from('{"a":1}\n'.repeat(100_000))).subarray(0, 600), expect: /is cut short: its gzip data ends/ },
  // An 866 KB file whose footer declares 50,000,000 schema elements: 21 GB in DuckDB (issue 25).
  { name: 'lying-footer.parquet', make: () => lyingParquet(50_000_000, 866_000), expect: /declares a list of 50,000,000 entries/ },
  // 10,000 columns: 2.09 GB before (a 200-column profile read all of them through a CTE DuckDB materialised).
  { name: 'wide.parquet', make: () => wideParquet(10_000, 100), expect: 'synched' },
  { name: 'truncated.parquet', make: () => Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(4000, 7)]), expect: /is cut short: a Parquet file ends/ },
];

describe('local service: hostile files (issue 12)', function () {
  this.timeout(1_200_000);
  let dir: string;
  let child: Child;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-hostile-'));
    child = await startChild(join(dir, 'data'));
  });
  after(async () => {
    if (child !== undefined) await killHard(child);
    await rm(dir, { recursive: true, force: true });
  });

  it('ends every hostile file valid or with a clear reason, answers what it accepted, and never crashes', async () => {
    const pid = child.proc.pid as number;
    const session = ((await call(child.baseUrl, 'POST', '/v1/team/sessions', { userId: USER }))['data'] as Rec)['id'] as string;
    const report: string[] = [];
    const problems: string[] = [];
    let crashes = 0;
    for (const c of CASES) {
      const path = join(dir, c.name);
      await writeFile(path, await c.make());
      const rss = watchPeakRss(pid);
      const { datasetId, sourceId } = await uploadSource(child.baseUrl, path);
      const settled = await eventually(async () => {
        if (exited(child)) return { status: 'crashed' } as Rec;
        const s = (await call(child.baseUrl, 'GET', `/v1/team/datasets/${datasetId}/datasources/${sourceId}`))['data'] as Rec;
        return s['status'] === 'synched' || s['status'] === 'invalid' ? s : undefined;
      }, `${c.name} to settle`, 2400, 100);
      let answered = '';
      if (settled['status'] === 'synched' && !exited(child)) {
        const job = await call(child.baseUrl, 'POST', '/v1/team/jobs', { sessionId: session, question: 'Give me an overview of this data', datasetId, stream: false });
        answered = job['code'] === 0 ? 'overview answered' : `overview failed: ${String(job['msg'])}`;
        if (job['code'] !== 0) problems.push(`${c.name}: ${answered}`);
      }
      const peak = await rss.stop();
      if (exited(child)) {
        crashes++;
        problems.push(`${c.name}: the service died (${String(child.proc.signalCode ?? child.proc.exitCode)})`);
        break;
      }
      const got = settled['status'] === 'invalid' ? String(settled['error'] ?? '') : 'synched';
      if (c.expect === 'synched' ? got !== 'synched' : !c.expect.test(got)) problems.push(`${c.name}: expected ${String(c.expect)}, got ${got}`);
      if (peak >= 2 * 1024 ** 3) problems.push(`${c.name}: peak RSS ${(peak / 1024 ** 2).toFixed(0)} MB`);
      report.push(`${c.name.padEnd(22)} ${got.slice(0, 90).padEnd(92)} ${answered.padEnd(18)} peak RSS ${(peak / 1024 ** 2).toFixed(0)} MB`);
      await rm(path, { force: true });
    }
    console.log(`      hostile files: ${CASES.length} tried / ${crashes} service crashes (target 0)`);
    for (const line of report) console.log(`        ${line}`);
    assert.deepEqual(problems, []);
    // Still serving.
    assert.equal((await call(child.baseUrl, 'GET', '/v1/team/datasets?pageSize=1'))['code'], 0);
  });
});
