/**
 * The extension's data folder (localService/dataFolder.ts): the setting, else TEAM_DATA_DATA_DIR,
 * else the CLI's folder; and the one-time move of an earlier version's per-window data into it,
 * only when the shared folder holds no data of its own.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adoptOldFolder, chosenDataFolder } from '../../../../src/extension/localService/dataFolder';

describe('the extension\'s local data folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'td-datafolder-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const withState = (folder: string, text: string): void => {
    mkdirSync(join(folder, 'meta'), { recursive: true });
    writeFileSync(join(folder, 'meta', 'state.json'), text);
  };

  it('is the setting, else TEAM_DATA_DATA_DIR, else the folder the CLI uses', () => {
    assert.equal(chosenDataFolder('/x/set', { TEAM_DATA_DATA_DIR: '/x/env' }), '/x/set');
    assert.equal(chosenDataFolder('', { TEAM_DATA_DATA_DIR: '/x/env' }), '/x/env');
    assert.equal(chosenDataFolder('', { TEAM_DATA_DATA_DIR: 'relative', XDG_DATA_HOME: '/x/xdg' }), '/x/xdg/team-data');
  });

  it('moves the old folder\'s data into an empty shared folder, also next to a service folder alone', async () => {
    const old = join(dir, 'old');
    withState(old, 'OLD');
    const shared = join(dir, 'shared');
    mkdirSync(join(shared, 'service'), { recursive: true });
    assert.match(await adoptOldFolder(old, shared) ?? '', /^Moved your local datasets and sessions/);
    assert.equal(readFileSync(join(shared, 'meta', 'state.json'), 'utf8'), 'OLD');
    assert.ok(existsSync(join(shared, 'service')));
    assert.equal(await adoptOldFolder(old, shared), undefined, 'once');
  });

  it('leaves both alone when the shared folder has data of its own, and says where the old data is', async () => {
    const old = join(dir, 'old');
    withState(old, 'OLD');
    const shared = join(dir, 'shared');
    withState(shared, 'SHARED');
    assert.equal(await adoptOldFolder(old, shared), undefined);
    writeFileSync(join(dir, 'x'), '');
    rmSync(join(shared, 'meta'), { recursive: true });
    mkdirSync(join(shared, 'history'), { recursive: true });
    assert.match(await adoptOldFolder(old, shared) ?? '', /stay in .*old.*Set teamData\.localDataFolder/);
    assert.equal(readFileSync(join(old, 'meta', 'state.json'), 'utf8'), 'OLD');
  });
});
