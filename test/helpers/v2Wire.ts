/** Small wire-level helpers for v2 server tests: an upload with `user_id`, waiting for a source. */
import { strict as assert } from 'node:assert';
import { eventually, multipart, TEST_KEY, USER, type Harness } from './serverHarness';

type Rec = Record<string, unknown>;
const data = (r: { json?: { data: unknown } | undefined }): Rec => r.json?.data as Rec;

/** 48 invented rows: four regions, twelve months, a revenue that grows by one each row. */
export const SALES = `region,month,revenue\n${Array.from({ length: 48 }, (_, i) => `${['north', 'south', 'east', 'west'][i % 4] as string},2024-${String((i % 12) + 1).padStart(2, '0')}-01,${100 + i}`).join('\n')}\n`;

export async function uploadV2(h: Harness, fileName: string, contents: string, user = USER): Promise<string> {
  // The v2 form carries `user_id` beside the file.
  const file = multipart('file', fileName, contents);
  const boundary = /boundary=(.+)$/.exec(file.contentType)?.[1] as string;
  const userPart = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${user}\r\n`);
  const r = await fetch(`${h.baseUrl}/v2/team/file/upload-datasource`, {
    method: 'POST', headers: { 'x-pd-api-key': TEST_KEY, 'content-type': file.contentType }, body: Buffer.concat([userPart, file.body]),
  });
  const json = (await r.json()) as { code: number; data: Rec };
  assert.equal(json.code, 0, JSON.stringify(json));
  assert.deepEqual(Object.keys(json.data), ['file_object_key']);
  return json.data['file_object_key'] as string;
}

export async function waitSynched(h: Harness, datasetId: string, sourceId: string): Promise<Rec> {
  return eventually(async () => {
    const d = data(await h.call('GET', `/v2/team/datasets/${datasetId}/datasources/${sourceId}?user_id=${USER}`));
    if (d['status'] === 'invalid' && d['error'] !== undefined) throw new Error(`processing failed: ${String(d['error'])}`);
    return d['status'] === 'synched' ? d : undefined;
  }, 'the data source to be synched');
}

