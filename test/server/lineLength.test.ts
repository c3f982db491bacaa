import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { jsonDepthGuard, MAX_JSON_RECORD_BYTES, type JsonLimits } from '../../src/server/duckdb/jsonDepth';
import { checkLineLengths } from '../../src/server/duckdb/lineLength';
import type { DataSource } from '../../src/shared/domain';

describe('line lengths checked before DuckDB reads a CSV', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-lines-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  const verdict = async (text: string, max?: number): Promise<string> => {
    const f = join(dir, 'f.csv');
    await writeFile(f, text);
    return checkLineLengths(f, 'f.csv', 'CSV', new AbortController().signal, max).then(() => 'ok', (e: Error) => (/longer than/.test(e.message) ? 'too long' : e.message));
  };

  it('refuses a line one byte over the limit wherever it falls across read chunks, and accepts one at the limit', async () => {
    assert.equal(await verdict(`a\n${'x'.repeat(2_000_001)}\nb\n`), 'too long');
    assert.equal(await verdict(`a\n${'x'.repeat(2_000_000)}\nb\n`), 'ok');
    assert.equal(await verdict('x'.repeat(2_000_001)), 'too long', 'a file of one line without a newline');
    for (const lead of [0, 37, 99]) {
      assert.equal(await verdict(`${'y'.repeat(lead)}\n${'x'.repeat(101)}\n`, 100), 'too long', `offset ${lead}`);
      assert.equal(await verdict(`${'y'.repeat(lead)}\n${'x'.repeat(100)}\n`, 100), 'ok', `offset ${lead}`);
    }
  });
});

describe('JSON record lengths checked before DuckDB reads a JSON or JSON Lines file (issue 25)', () => {
  const verdict = (text: string, limits: JsonLimits, chunk = 7): string => {
    const check = jsonDepthGuard('f.json', undefined, limits);
    const buf = Buffer.from(text);
    try {
      for (let i = 0; i < buf.length; i += chunk) check(buf.subarray(i, i + chunk));
      return 'ok';
    } catch (e) {
      const m = (e as Error).message;
      return /a record is longer/.test(m) ? 'record too long' : /one document is longer/.test(m) ? 'document too long' : m;
    }
  };
  const lines = { recordBytes: 20, lines: true };

  it('refuses a JSON Lines line or a top-level array element over the limit, wherever chunks split it', () => {
    for (const chunk of [1, 3, 7, 64]) {
      assert.equal(verdict(`{"a":1}\n{"a":"${'x'.repeat(20)}"}\n{"a":2}\n`, lines, chunk), 'record too long', `chunk ${chunk}`);
      assert.equal(verdict(`{"a":1}\n{"a":"${'x'.repeat(10)}"}\n{"a":2}\n`, lines, chunk), 'ok', `chunk ${chunk}`);
      assert.equal(verdict(`[{"a":1},"${'x'.repeat(30)}",{"a":2}]`, { recordBytes: 20 }, chunk), 'record too long');
      assert.equal(verdict(`[[1,2],[${'1,'.repeat(20)}1]]`, { recordBytes: 20 }, chunk), 'record too long');
      // A minified array of many short records is one long line, and fine.
      assert.equal(verdict(`[${Array.from({ length: 50 }, (_, i) => `{"a":${i}}`).join(',')}]`, { recordBytes: 20, documentBytes: 20 }, chunk), 'ok');
    }
  });

  it('gives a single top-level object its own, larger limit', () => {
    const doc = `{"type":"x","items":[${'1,'.repeat(30)}1]}`;
    assert.equal(verdict(doc, { recordBytes: 20, documentBytes: 200 }), 'ok');
    assert.equal(verdict(doc, { recordBytes: 20, documentBytes: 40 }), 'document too long');
  });

  it('refuses a JSON Lines file with one very long line through the store, quickly and with a clear reason', async function () {
    this.timeout(120_000);
    const root = await mkdtemp(join(tmpdir(), 'td-jsonl-'));
    const store = await DuckDbStore.open(join(root, 'db'));
    try {
      const path = join(root, 'long.jsonl');
      await writeFile(path, `{"a":1}\n{"a":"${'x'.repeat(MAX_JSON_RECORD_BYTES + 10)}"}\n{"a":2}\n`);
      const source: DataSource = { id: 'j1', datasetId: 'd', name: 'long.jsonl', fileName: 'long.jsonl', type: 'FILE', status: 'synched' };
      await assert.rejects(store.ingest(source, path, new AbortController().signal), /could not read long\.jsonl as JSON: a record is longer than 17 MB/);
      await writeFile(path, '{"a":1}\n{"a":2}\n');
      const ok = await store.ingest(source, path, new AbortController().signal);
      assert.equal(ok.kind, 'tables');
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
