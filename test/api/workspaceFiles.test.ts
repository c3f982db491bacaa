/**
 * VS Code's analyze tool for language models (security review of issue 25, item 2): the tools it
 * runs read only inside the open workspace folders, as the file system resolves paths (absolute
 * paths, ../ and symlinks out of them get one refusal), and the confirmation shows the whole path.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ToolInputError } from '../../src/api/analysisTools';
import { TeamDataClient } from '../../src/api/index';
import { markdownCode, shownPath, workspaceAnalysisTools, type WorkspaceFolderPath } from '../../src/api/workspaceFiles';

describe('api/workspaceFiles: the language-model tools read only inside the workspace folders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ws-tools-'));
  const ws = join(dir, 'ws');
  const other = join(dir, 'other');
  const outside = join(dir, 'outside');
  for (const d of [ws, other, outside]) mkdirSync(d);
  writeFileSync(join(outside, 'secret.csv'), 'who,amount\nme,42\n');
  symlinkSync(join(outside, 'secret.csv'), join(ws, 'link.csv'));
  symlinkSync(outside, join(ws, 'outdir'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // Never contacted: the path checks come before any request.
  const client = new TeamDataClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', userId: 'u', retry: { attempts: 1 } });
  let folders: WorkspaceFolderPath[] = [{ name: 'ws', path: ws }];
  const tools = workspaceAnalysisTools(client, () => folders, false);

  async function refusal(path: string): Promise<string> {
    let message = '';
    await assert.rejects(tools.analyzeFiles([path], 'total amount'), (e: unknown) => {
      assert.ok(e instanceof ToolInputError, String(e));
      message = e.message;
      return true;
    });
    return message;
  }

  it('refuses absolute paths, ../ and links out of the folders with one message, whatever is there', async () => {
    const paths = [join(outside, 'secret.csv'), '../outside/secret.csv', 'link.csv', 'outdir/secret.csv', '/etc/passwd', join(outside, 'missing.csv'), 'outdir/missing.csv'];
    for (const p of paths) assert.equal(await refusal(p), `${p}: outside the folders this server may read (${ws})`);
    // Inside, a missing file is said to be missing (relative paths from the first folder).
    assert.equal(await refusal('missing.csv'), 'missing.csv: no such file');
  });

  it('follows the folders open at each call, and refuses everything with none open', async () => {
    folders = [];
    assert.match(await refusal('missing.csv'), /^missing\.csv: no workspace folder is open, and this tool reads files only inside the open workspace folders/);
    folders = [{ name: 'other', path: other }, { name: 'ws', path: ws }];
    assert.equal(await refusal(join(ws, 'missing.csv')), `${join(ws, 'missing.csv')}: no such file`);
    assert.equal(await refusal('missing.csv'), 'missing.csv: no such file');
    assert.match(await refusal('link.csv'), /^link\.csv: no such file/, 'relative paths are taken from the first folder');
    folders = [{ name: 'ws', path: ws }];
  });

  it('shows each path relative to its folder in the confirmation (led by the folder\'s name when several are open), else whole and flagged', () => {
    const one = [{ name: 'ws', path: ws }];
    assert.deepEqual(shownPath('data/sales.csv', one), { shown: join('data', 'sales.csv'), inside: true });
    assert.deepEqual(shownPath(join(ws, 'a', 'b.csv'), one), { shown: join('a', 'b.csv'), inside: true });
    assert.deepEqual(shownPath('../outside/secret.csv', one), { shown: join(outside, 'secret.csv'), inside: false });
    const two = [{ name: 'other', path: other }, { name: 'ws', path: ws }];
    assert.deepEqual(shownPath(join(ws, 'sales.csv'), two), { shown: 'ws/sales.csv', inside: true });
    assert.deepEqual(shownPath('/etc/passwd', []), { shown: '/etc/passwd', inside: false });
    assert.equal(basename(shownPath('x.csv', two).shown), 'x.csv');
    assert.equal(markdownCode('a.csv'), '`a.csv`');
    assert.equal(markdownCode('a`b.csv'), '`` a`b.csv ``', 'a backtick in a name cannot end the code span early');
  });
});
