/**
 * Sign In validates the key by listing sessions and stores it in SecretStorage (never in
 * settings); Sign Out clears it. The "hosted" service here is the real local service, addressed
 * by its URL, so validation talks to a real server.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { secretName } from '../../../../src/extension/connection/keyStore';
import { api, assertHumane, ScriptedPrompts, waitFor } from './helpers';

describe('sign in and out', function () {
  this.timeout(60_000);
  let prompts: ScriptedPrompts;

  beforeEach(async () => {
    assert.equal(process.env['TEAM_DATA_API_KEY'], undefined, 'TEAM_DATA_API_KEY must not be set for these tests (it overrides stored keys)');
    prompts = new ScriptedPrompts();
    (await api()).usePrompts(prompts);
  });

  afterEach(async () => {
    const a = await api();
    a.usePrompts(undefined);
    const config = vscode.workspace.getConfiguration('teamData');
    await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config.update('userId', undefined, vscode.ConfigurationTarget.Global);
    await a.services.connection.refresh();
    for (const n of prompts.notifications) assertHumane(n.message);
  });

  it('rejects a wrong key without storing anything', async () => {
    const a = await api();
    const endpoint = await a.services.supervisor.ensureStarted();
    prompts.expect(
      { kind: 'input', match: /Base URL/, answer: () => endpoint.baseUrl },
      { kind: 'input', match: /user id/, answer: () => 'tester' },
      { kind: 'input', match: /API key/, answer: () => 'definitely-not-the-key' },
    );
    const ok = await vscode.commands.executeCommand('teamData.signIn');
    prompts.assertDone();
    assert.equal(ok, false);
    const error = prompts.errors()[0];
    assert.ok(error, 'the rejection is reported');
    assert.match(error.message, /Could not sign in/);
    assert.ok(!error.message.includes('definitely-not-the-key'), 'the key never appears in messages');
    assert.equal(await a.services.context.secrets.get(secretName(endpoint.baseUrl)), undefined);
    assert.equal(vscode.workspace.getConfiguration('teamData').get('baseUrl'), '', 'nothing written on failure');
  });

  it('stores a valid key in SecretStorage (not settings) and Sign Out clears it', async () => {
    const a = await api();
    const endpoint = await a.services.supervisor.ensureStarted();
    prompts.expect(
      { kind: 'input', match: /Base URL/, answer: () => endpoint.baseUrl },
      { kind: 'input', match: /user id/, answer: () => 'tester' },
      { kind: 'input', match: /API key/, answer: (o) => (o.password ? endpoint.apiKey : 'the key box must be a password box') },
    );
    const ok = await vscode.commands.executeCommand('teamData.signIn');
    prompts.assertDone();
    assert.equal(ok, true, JSON.stringify(prompts.notifications));
    const name = secretName(endpoint.baseUrl);
    assert.equal(await a.services.context.secrets.get(name), endpoint.apiKey, 'the key is in SecretStorage');
    const config = vscode.workspace.getConfiguration('teamData');
    assert.equal(config.get('baseUrl'), endpoint.baseUrl);
    assert.equal(config.get('userId'), 'tester');
    const allSettings = JSON.stringify(config);
    assert.ok(!allSettings.includes(endpoint.apiKey), 'the key must not be in settings');
    const info = await a.services.connection.refresh();
    assert.equal(info.mode, 'hosted');
    assert.equal(info.signedIn, true);
    assert.equal(info.keySource, 'secretStorage');
    assert.match(a.services.status.text, /127\.0\.0\.1/);
    // The hosted connection really works with the stored key.
    const client = await a.services.connection.client();
    await client.sessions.list({ pageSize: 1 });

    await vscode.commands.executeCommand('teamData.signOut');
    assert.equal(await a.services.context.secrets.get(name), undefined, 'Sign Out removes the key');
    const after = await a.services.connection.refresh();
    assert.equal(after.signedIn, false);
    assert.match(a.services.status.text, /signed out/);
    await assert.rejects(a.services.connection.client(), /not signed in/);
    // Signed out, the trees are empty so the welcome view offers Sign In.
    a.services.datasets.refresh();
    assert.deepEqual(await a.services.datasets.getChildren(), []);
  });

  it('says plainly when the base URL answers neither API version', async () => {
    const a = await api();
    const endpoint = await a.services.supervisor.ensureStarted();
    prompts.expect(
      { kind: 'input', match: /Base URL/, answer: () => `${endpoint.baseUrl}/not-the-api` },
      { kind: 'input', match: /user id/, answer: () => 'tester' },
      { kind: 'input', match: /API key/, answer: () => endpoint.apiKey },
    );
    const ok = await vscode.commands.executeCommand('teamData.signIn');
    prompts.assertDone();
    assert.equal(ok, false);
    const error = prompts.errors()[0];
    assert.match(error?.message ?? '', /[Nn]either the v[12] nor the v[12] API was found .* check the base URL/, JSON.stringify(prompts.notifications));
    assert.ok(!(error?.message ?? '').includes(endpoint.apiKey), 'the key never appears in messages');
  });

  it('tells which API version to pick when the service has dropped the chosen one, and switches on request', async () => {
    const a = await api();
    // A real service that speaks only v2, as the hosted one will once v1 is gone: our own local
    // service started with --api-versions v2.
    const dataDir = mkdtempSync(join(tmpdir(), 'td-v2only-'));
    const child = spawn(process.execPath, [join(a.services.context.extensionPath, 'dist', 'cli.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--api-versions', 'v2'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const config = vscode.workspace.getConfiguration('teamData');
    // The suite also runs with the workspace set to v1; whatever the workspace says is put back.
    const workspaceVersion = config.inspect<string>('apiVersion')?.workspaceValue;
    try {
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      const [baseUrl, key] = await waitFor('the v2-only service', () => {
        const url = /TEAM_DATA_BASE_URL=(\S+)/.exec(out)?.[1];
        const k = /TEAM_DATA_API_KEY=(\S+)/.exec(out)?.[1];
        return url && k ? [url, k] as const : undefined;
      });
      await config.update('apiVersion', 'v1', workspaceVersion !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
      prompts.expect(
        { kind: 'input', match: /Base URL/, answer: () => baseUrl },
        { kind: 'input', match: /user id/, answer: () => 'tester' },
        { kind: 'input', match: /API key/, answer: () => key },
        { kind: 'choose', match: /speaks the v2 API, not v1: a v1 request answered "not found"/, answer: 'Use v2' },
      );
      const ok = await vscode.commands.executeCommand('teamData.signIn');
      prompts.assertDone();
      assert.equal(ok, true, JSON.stringify(prompts.notifications));
      assert.equal(vscode.workspace.getConfiguration('teamData').get('apiVersion'), 'v2', 'the setting now names the version the service speaks');
      const info = await a.services.connection.refresh();
      assert.equal(info.apiVersion, 'v2');
      await (await a.services.connection.client()).sessions.list({ pageSize: 1 });
      await vscode.commands.executeCommand('teamData.signOut');
    } finally {
      await config.update('apiVersion', undefined, vscode.ConfigurationTarget.Global);
      if (workspaceVersion !== undefined) await config.update('apiVersion', workspaceVersion, vscode.ConfigurationTarget.Workspace);
      await a.services.connection.refresh();
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
