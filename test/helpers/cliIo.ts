/**
 * For running CLI commands in-process: a stream that keeps what was written, and the real API on a
 * data folder (started and stopped around `fn`, never while a command has the folder open).
 */
import { Writable } from 'node:stream';
import { TeamDataClient } from '../../src/api/index';
import { startLocalService } from '../../src/server/localService';

export class TextSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `fn` with a client of the embedded service on `dataDir`; `userId` undefined: no user. */
export async function onService<T>(dataDir: string, userId: string | undefined, fn: (client: TeamDataClient) => Promise<T>): Promise<T> {
  const service = await startLocalService({ dataDir, apiKey: 'test-key-0123456789', port: 0 });
  try {
    return await fn(new TeamDataClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, ...(userId !== undefined ? { userId } : {}) }));
  } finally {
    await service.close();
  }
}
