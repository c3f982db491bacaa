/**
 * Which questions may be answered from a large in-place CSV while its columnar copy is written
 * (engine/fileFirst.ts): only those whose reading against the read's statistics is plain and stays
 * the same whatever the statistics leave open. Read against the statistics of a real read.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { readsTheSame } from '../../src/server/engine/fileFirst';
import { readQuestion } from '../../src/server/engine/reader';
import { SchemaIndex } from '../../src/server/engine/schemaIndex';
import type { TableMeta } from '../../src/server/engine/types';
import type { DataSource } from '../../src/shared/domain';

describe('questions answered from the file while its copy is written', function () {
  this.timeout(60_000);
  let dir: string;
  let quick: TableMeta[];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-file-first-'));
    const lines = ['ticket_id,store,region,amount,day,comment'];
    // 3,000 tickets of 45 stores in 4 regions; comments too many to list.
    for (let i = 0; i < 3000; i++) lines.push(`${100_000 + i},${1 + (i % 45)},${['north', 'south', 'east', 'west'][i % 4] as string},${(i * 7) % 300},2024-0${1 + (i % 9)}-1${i % 10},c${i % 400}`);
    const path = join(dir, 'tickets.csv');
    await writeFile(path, `${lines.join('\n')}\n`);
    const store = await DuckDbStore.open(join(dir, 'data'), { readableDirs: [dir], inPlaceCache: false });
    try {
      const source: DataSource = { id: 'tickets', datasetId: 'd', name: 'tickets.csv', fileName: 'tickets.csv', type: 'FILE', status: 'synched', size: (await stat(path)).size };
      const ingest = await store.ingest(source, path, new AbortController().signal, { inPlace: true });
      const q = new SchemaIndex(async () => []).quickTables([{ source, ingest }]);
      assert.ok(q !== undefined, 'the read has statistics');
      quick = q;
    } finally {
      await store.close();
    }
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fromFile = (question: string): boolean => readsTheSame((tables) => readQuestion(question, [], tables, []), quick);

  it('takes plain sums, averages and counts by listed values and dates', () => {
    for (const q of ['total amount by region', 'average amount per region', 'number of rows by region', 'total amount in march 2024', 'total amount by month']) assert.equal(fromFile(q), true, q);
  });

  it('leaves to the index what depends on distinct counts the statistics do not give', () => {
    // Each ticket once: the number of rows; else a distinct count. Only the index knows.
    assert.equal(fromFile('how many distinct ticket_id'), false);
    // `store` 1..45 over 3,000 rows: codes of stores to the index, never added up.
    assert.equal(fromFile('total store'), false);
    // 400 comments: more than the statistics list.
    assert.equal(fromFile('total amount by comment'), false);
  });

  it('leaves to the index what is not one plain reading', () => {
    for (const q of ['show the rows with the highest amount', 'correlation between amount and store', 'how many rows are missing a comment', 'total amount by region and xyzzy']) assert.equal(fromFile(q), false, q);
  });
});
