/**
 * Slow and half-finished requests cannot hold connections: a body shorter than its declared length
 * is answered 408 (with a key) or with its error (without one) and the connection closes; a streamed
 * job honours `Connection: close`. Raw sockets, so nothing in between fixes the bytes up.
 */
import { strict as assert } from 'node:assert';
import { connect, type Socket } from 'node:net';
import { newSession, seedDataset, startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';

interface Exchange {
  /** Everything the server sent before closing. */
  text: string;
}

/** Writes `head` (and `partial`), then waits for the server to answer and close the connection. */
function exchange(h: Harness, head: string, partial = ''): Promise<Exchange> {
  const u = new URL(h.baseUrl);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(u.port), u.hostname, () => socket.write(head + partial));
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text }));
  });
}

describe('local service: slow clients and connection handling (issue 12)', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.stop());

  it('answers 408 and closes when a body stops short of its declared length', async () => {
    const u = new URL(h.baseUrl);
    const head = `POST /v1/team/datasets HTTP/1.1\r\nHost: ${u.host}\r\nx-pd-api-key: ${TEST_KEY}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n`;
    const r = await exchange(h, head, '{"name":"sl');
    assert.match(r.text, /^HTTP\/1\.1 408 /);
    assert.match(r.text, /connection: close/i);
  });

  it('does not wait forever for the body of a request without a key', async () => {
    const u = new URL(h.baseUrl);
    const head = `POST /v1/team/datasets HTTP/1.1\r\nHost: ${u.host}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`;
    const r = await exchange(h, head, '{"name":');
    assert.match(r.text, /^HTTP\/1\.1 403 /);
    assert.match(r.text, /connection: close/i);
  });

  it('answers 408 to a multipart upload that stalls', async () => {
    const u = new URL(h.baseUrl);
    const boundary = 'xyzzy';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n`;
    const head = `POST /v1/team/file/upload-datasource HTTP/1.1\r\nHost: ${u.host}\r\nx-pd-api-key: ${TEST_KEY}\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 5000\r\n\r\n`;
    const r = await exchange(h, head, part);
    assert.match(r.text, /^HTTP\/1\.1 408 /);
  });

  it('closes a streamed job\'s connection after the end when the client asked for Connection: close', async () => {
    const { datasetId } = await seedDataset(h, { 'n.csv': 'a,b\n1,2\n3,4\n' });
    const sessionId = await newSession(h);
    const body = JSON.stringify({ sessionId, question: 'How many rows?', datasetId, stream: true });
    const u = new URL(h.baseUrl);
    const head = `POST /v1/team/jobs HTTP/1.1\r\nHost: ${u.host}\r\nx-pd-api-key: ${TEST_KEY}\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const r = await exchange(h, head, body);
    assert.match(r.text, /^HTTP\/1\.1 200 /);
    assert.match(r.text, /\r\nconnection: close\r\n/i, r.text.slice(0, 400));
    assert.match(r.text, /\[DONE\]/);
  });
});
