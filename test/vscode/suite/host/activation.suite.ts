/**
 * Activation and the command table against package.json: every contributed command is
 * registered, every registered `teamData.*` command is contributed, activation is lazy.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { api, extension, waitFor } from './helpers';

interface Manifest {
  main: string;
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string; title: string }>;
    menus: Record<string, Array<{ command: string; when?: string }>>;
    views: Record<string, Array<{ id: string }>>;
    configuration: { properties: Record<string, { markdownDescription?: string }> };
    walkthroughs: Array<{ steps: Array<{ media: { markdown?: string } }> }>;
  };
}

describe('activation', () => {
  it('activates lazily (never on *) and returns its test API', async () => {
    const ext = extension();
    const manifest = ext.packageJSON as Manifest;
    assert.ok(!manifest.activationEvents.includes('*'), 'activation must be lazy');
    assert.ok(manifest.activationEvents.includes('onView:teamData.datasets'));
    assert.ok(manifest.activationEvents.includes('onWebviewPanel:teamData.answer'));
    const a = await api();
    assert.equal(ext.isActive, true);
    assert.ok(a.services.connection, 'services are exposed to the tests');
  });

  it('speaks the API version the workspace selects', async () => {
    const a = await api();
    const wanted = process.env['TEAM_DATA_SUITE_API_VERSION'] ?? 'v2';
    assert.equal(a.services.connection.info.apiVersion, wanted);
    // A real call in that version: the local service answers both.
    await (await a.services.connection.client()).sessions.list({ pageSize: 1 });
  });

  it('registers every command in package.json, and nothing that is not in it', async () => {
    const manifest = extension().packageJSON as Manifest;
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    // VS Code itself registers focus/open/... commands for every contributed view; they are not ours.
    const viewIds = Object.values(manifest.contributes.views).flat().map((v) => v.id.replace(/\./g, '\\.'));
    const generated = new RegExp(`^(${viewIds.join('|')})\\.(focus|open|removeView|resetViewLocation|toggleVisibility)$`);
    const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('teamData.') && !generated.test(c)).sort();
    assert.ok(generated.test('teamData.datasets.focus'), `the view-command filter is wrong: ${generated}`);
    assert.deepEqual(contributed.filter((c) => !registered.includes(c)), [], 'contributed but not registered');
    assert.deepEqual(registered.filter((c) => !contributed.includes(c)), [], 'registered but not contributed');
    // Menus may only name commands that exist.
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const e of entries) assert.ok(contributed.includes(e.command), `${menu} names unknown command ${e.command}`);
    }
  });

  it('uses localized strings for titles and setting descriptions (package.nls.json)', () => {
    const manifest = extension().packageJSON as Manifest;
    // VS Code substitutes %key% at load time; an unresolved key shows up verbatim.
    for (const c of manifest.contributes.commands) assert.ok(!/^%.*%$/.test(c.title), `unresolved title of ${c.command}`);
    for (const [k, p] of Object.entries(manifest.contributes.configuration.properties)) {
      assert.ok(p.markdownDescription && !/^%.*%$/.test(p.markdownDescription), `setting ${k} lacks a markdownDescription`);
    }
  });

  it('writes welcome texts without Markdown emphasis, which views show literally', () => {
    // Welcome views render links only: "**Analyze This File**" appeared with its asterisks.
    const manifest = extension().packageJSON as { contributes: { viewsWelcome: Array<{ view: string; contents: string }> } };
    for (const w of manifest.contributes.viewsWelcome) assert.ok(!/\*\*|__|(^|[^\\])`/.test(w.contents), `${w.view}: ${w.contents}`);
  });

  it('offers Analyze This File in the Explorer for all 23 file types (compressed ones by their full name), case-insensitively', () => {
    const manifest = extension().packageJSON as Manifest;
    const entry = manifest.contributes.menus['explorer/context']?.find((m) => m.command === 'teamData.analyzeFile');
    assert.ok(entry?.when, 'no explorer/context entry');
    // resourceExtname is only the last extension (".gz"), so the menu matches the whole file name.
    const m = /resourceFilename =~ \/(.+)\/(\w*)/.exec(entry.when);
    assert.ok(m?.[1], entry.when);
    const re = new RegExp(m[1], m[2]);
    const types = ['.csv', '.tsv', '.md', '.mdx', '.json', '.txt', '.pdf', '.pptx', '.ppt', '.doc', '.docx', '.xls', '.xlsx',
      '.parquet', '.jsonl', '.ndjson', '.csv.gz', '.tsv.gz', '.json.gz', '.jsonl.gz', '.ndjson.gz', '.parquet.gz', '.xlsx.gz'];
    for (const ext of types) {
      assert.ok(re.test(`data${ext}`) && re.test(`DATA${ext.toUpperCase()}`), `data${ext} is not matched by ${re}`);
    }
    for (const name of ['a.exe', 'a.csvx', 'a.js', 'a.gz', 'a.xls.gz', '.csv', 'csv']) assert.ok(!re.test(name), `${name} must not match`);
  });

  it('shows the status bar item for the local service', async () => {
    const a = await api();
    await waitFor('a local status', () => /Team Data: Local|Team Data:/.test(a.services.status.text) || undefined);
    assert.match(a.services.status.text, /Local/);
  });
});
