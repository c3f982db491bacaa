/**
 * For running CLI commands in-process: a stream that keeps what was written, and the real API on a
 * data folder through its shared service, as the commands themselves reach it.
 */
import { Writable } from 'node:stream';
import { TeamDataClient } from '../../src/api/index';
import { attachOrStart } from '../../src/cli/serviceAttach';
import { builtCli, sharedEnv } from './sharedCli';

/** The environment that lets in-process commands start the shared service from the built CLI, with a short idle wait. */
export async function builtCliEnv(): Promise<NodeJS.ProcessEnv> {
  return sharedEnv(await builtCli());
}

export class TextSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `fn` with a client of the embedded service on `dataDir`; `userId` undefined: no user. */
export async function onService<T>(dataDir: string, userId: string | undefined, fn: (client: TeamDataClient) => Promise<T>): Promise<T> {
  const cliPath = await builtCli();
  const a = await attachOrStart({ dataDir, cliPath, version: 'test', client: 'test', env: { ...process.env, ...sharedEnv(cliPath) } });
  try {
    return await fn(new TeamDataClient({ baseUrl: a.discovery.baseUrl, apiKey: a.discovery.apiKey, ...(userId !== undefined ? { userId } : {}) }));
  } finally {
    await a.lease.release();
  }
}
