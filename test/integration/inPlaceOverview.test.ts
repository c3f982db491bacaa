/**
 * The first answer on a file read in place (issue 16, item 4): its overview comes from the
 * statistics the ingest scan gathered, so it costs no further read of the file. Every number it
 * prints must still be exact: rows, missing values, ranges and means are checked against DuckDB
 * over the same file, and a text column with more than 50 distinct values gets no count at all
 * rather than an estimate.
 */
import { strict as assert } from 'node:assert';
import { DuckDBInstance } from '@duckdb/node-api';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile, type Answer } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import { parseCsv } from '../../src/shared/csv';
import { QUICK_OVERVIEW_ROWS } from '../../src/server/engine/localEngine';
import { messageText, useInPlaceWorld } from '../helpers/inPlaceWorld';

const REGIONS = ['north', 'south', 'east', 'west'];
/** Above QUICK_OVERVIEW_ROWS: a file large enough for the one-pass overview. */
const ROWS = QUICK_OVERVIEW_ROWS + 40_000;

/** Invented orders: 4 regions, 300 customers, amounts with a missing value every 9th row. */
function ordersCsv(rows: number, bump = 0): string {
  const lines = ['region,customer,amount,day'];
  for (let i = 0; i < rows; i++) {
    const amount = i % 9 === 0 ? '' : String(((i * 37) % 500) + bump);
    lines.push(`${REGIONS[i % 4] as string},c-${i % 300},${amount},2024-0${1 + (i % 9)}-1${i % 10}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('overview of a file read in place, from its ingest scan (issue 16)', function () {
  this.timeout(180_000);
  const w = useInPlaceWorld('overview');

  /** Exact figures of the file, computed by DuckDB directly. */
  async function exact(path: string): Promise<{ rows: number; missing: number; min: number; max: number; mean: number }> {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const r = (await c.runAndReadAll(`SELECT count(*), count(*) - count(amount), min(amount), max(amount), avg(amount) FROM read_csv('${path.replace(/'/g, "''")}')`)).getRowsJS()[0] ?? [];
    c.disconnectSync();
    db.closeSync();
    const [rows, missing, min, max, mean] = r.map(Number) as [number, number, number, number, number];
    return { rows, missing, min, max, mean };
  }

  async function overview(sourceId: string): Promise<Answer> {
    return w.client.jobs.run({ sessionId: w.sessionId, datasetId: w.datasetId, datasourceIdList: [sourceId], question: 'Give me an overview of this data' });
  }

  it('answers the overview from the one scan, with exact numbers and no estimated counts', async () => {
    const { client, datasetId, sessionId, root } = w;
    const path = join(root, 'orders.csv');
    await writeFile(path, ordersCsv(ROWS));
    const ds = await client.dataSources.create(datasetId, { fileName: 'orders.csv', path });
    await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 });
    const answer = await overview(ds.id);
    assert.equal(answer.state, 'done');
    const steps = answerBlocks(answer).filter((b) => b.type === 'CODE');
    assert.equal(steps.length, 1, 'one SQL block: the scan');
    assert.match(steps[0]?.type === 'CODE' ? steps[0].content : '', /read_csv\('orders\.csv'[\s\S]*approx_top_k/);
    const body = messageText(answer);
    const want = await exact(path);
    assert.match(body, new RegExp(`${ROWS.toLocaleString('en-US')} rows`));
    assert.match(body, /`region`: 4 distinct values/);
    // 300 customers: more than the scan lists, so no count is claimed.
    assert.match(body, /`customer`: more than 50 distinct values/);
    assert.doesNotMatch(body, /`customer`: [\d,]+ distinct/);
    assert.match(body, new RegExp(`\`amount\`: ${want.min} to ${want.max}`));
    assert.match(body, new RegExp(`\`amount\`: ${want.missing.toLocaleString('en-US')} \\(`));
    const table = answerBlocks(answer).find((b) => b.type === 'TABLE');
    assert.ok(table && table.type === 'TABLE');
    const rows = parseCsv(await readFile((await downloadFile(table.content.url, join(root, 'out'))).path, 'utf8'));
    const amount = rows.find((r) => r[0] === 'amount');
    assert.ok(amount);
    assert.equal(Number(amount[2]), want.rows - want.missing, 'non-null count');
    assert.ok(Math.abs(Number(amount[7]) - want.mean) < 1e-9, `mean ${amount[7]} vs ${want.mean}`);
    assert.equal(rows.find((r) => r[0] === 'customer')?.[4], '', 'no distinct count for a column the scan could not list');

    // Other questions take the full path and stay right.
    const avg = await client.jobs.run({ sessionId, datasetId, datasourceIdList: [ds.id], question: 'how many rows per region' });
    assert.equal(avg.state, 'done');
    assert.match(messageText(avg), new RegExp((ROWS / 4).toLocaleString('en-US')));

    // An edit is read again, and the next overview has the new numbers.
    await writeFile(path, ordersCsv(ROWS + 4000, 1000));
    const again = await overview(ds.id);
    const now = await exact(path);
    assert.match(messageText(again), new RegExp(`${(ROWS + 4000).toLocaleString('en-US')} rows`));
    assert.match(messageText(again), new RegExp(`\`amount\`: ${now.min.toLocaleString('en-US')} to ${now.max.toLocaleString('en-US')}`));
  });

  it('a small file gets the exact profile: every distinct count and the duplicate rows', async () => {
    const { client, datasetId, root } = w;
    const path = join(root, 'small-orders.csv');
    await writeFile(path, ordersCsv(5000));
    const ds = await client.dataSources.create(datasetId, { fileName: 'small-orders.csv', path });
    await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 });
    const body = messageText(await overview(ds.id));
    assert.match(body, /`customer`: 300 distinct values/);
    assert.match(body, /duplicate rows/i);
    assert.doesNotMatch(body, /one pass/);
  });
});
