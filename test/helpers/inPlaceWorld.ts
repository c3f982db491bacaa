/**
 * A local service that reads files in place from a scratch folder, with a dataset and a session
 * ready: `before`/`after` hooks registered by the calling `describe`, values read through `world`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import type { Answer } from '../../src/shared/domain';
import { startHarness, TEST_KEY, USER, type Harness, type HarnessOptions } from './serverHarness';

export interface InPlaceWorld {
  h: Harness;
  client: TeamDataClient;
  /** The folder the service may read in place (removed afterwards). */
  root: string;
  datasetId: string;
  sessionId: string;
}

export function useInPlaceWorld(name: string, options: HarnessOptions = {}): InPlaceWorld {
  const world = {} as InPlaceWorld;
  before(async () => {
    world.root = await mkdtemp(join(tmpdir(), `team-data-${name}-`));
    world.h = await startHarness({ ...options, readRoots: [world.root] });
    world.client = new TeamDataClient({ baseUrl: world.h.baseUrl, apiKey: TEST_KEY, userId: USER });
    world.datasetId = (await world.client.datasets.create({ name, description: '' })).id;
    world.sessionId = (await world.client.sessions.create({ title: name, maxMessagesInContext: 0 })).id;
  });
  after(async () => {
    await world.h?.stop();
    if (world.root) await rm(world.root, { recursive: true, force: true });
  });
  return world;
}

/** The answer's prose, in order. */
export function messageText(answer: Answer): string {
  return answerBlocks(answer).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('');
}
