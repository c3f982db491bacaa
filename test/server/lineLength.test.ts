import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLineLengths } from '../../src/server/duckdb/lineLength';

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
