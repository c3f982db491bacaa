/**
 * The last table of an answer as totals by its first column (`region` → number), downloaded as a
 * user's client would (the integration tests of files read in place compare these with the file's).
 */
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile, type Answer } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import { parseCsv } from '../../src/shared/csv';

export async function answerTotals(answer: Answer, downloadDir: string): Promise<Map<string, number>> {
  const block = answerBlocks(answer).filter((b) => b.type === 'TABLE').pop();
  assert.ok(block && block.type === 'TABLE', 'the answer has a table');
  const file = await downloadFile(block.content.url, join(downloadDir, 'tables'));
  const rows = parseCsv(await readFile(file.path, 'utf8'));
  return new Map(rows.slice(1).map((r) => [r[0] as string, Number(r[1])]));
}
