/**
 * The agent tools refuse, before any upload, what the service in use cannot read: a hosted
 * service accepts fewer file types than the embedded local service, and the message says so.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalysisTools, ToolInputError } from '../../src/api/analysisTools';
import { TeamDataClient } from '../../src/api/index';

describe('api/analysisTools: file types per service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tools-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'orders.parquet'), 'PAR1');
  writeFileSync(join(dir, 'orders.csv.gz'), 'x');
  // Never contacted: the checks come before any request.
  const client = new TeamDataClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', userId: 'u', retry: { attempts: 1 } });

  it('a hosted service gets no Parquet or gzip file, with the reason and the way out', async () => {
    const tools = new AnalysisTools(client, dir, true);
    for (const f of ['orders.parquet', 'orders.csv.gz']) {
      await assert.rejects(tools.analyzeFiles([f], 'total by region'), (err: Error) => {
        assert.ok(err instanceof ToolInputError);
        assert.match(err.message, /the hosted service does not accept "\.(parquet|csv\.gz)" files .* convert the file to CSV first/);
        return true;
      });
    }
  });

  it('names unsupported types and missing files plainly', async () => {
    const tools = new AnalysisTools(client, dir, false);
    writeFileSync(join(dir, 'notes.exe'), 'MZ');
    await assert.rejects(tools.analyzeFiles(['notes.exe'], 'q'), /notes\.exe: files of type "\.exe" cannot be analyzed/);
    await assert.rejects(tools.analyzeFiles(['gone.csv'], 'q'), /gone\.csv: no such file/);
    await assert.rejects(tools.analyzeFiles([], 'q'), /name at least one file/);
    await assert.rejects(tools.analyzeFiles(['orders.parquet'], '   '), /the question is empty/);
  });
});
