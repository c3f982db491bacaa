/**
 * Sign In / Sign Out of a hosted service. Sign-in asks what is missing (base URL, user id), then
 * the key in a password box, proves it by listing sessions, and only then stores anything. The
 * key goes to SecretStorage (or memory, see KeyStore), never to settings or the log.
 */
import * as vscode from 'vscode';
import { isTeamDataError } from '../../api/index';
import { readSettings, updateSetting, type ApiVersion } from '../config';
import { hostedHost } from '../connection/connection';
import { API_KEY_ENV } from '../connection/keyStore';
import type { Services } from '../services';

export const DEFAULT_HOSTED_URL = 'https://ai.data.cloud/api';

function validUrl(v: string): string | undefined {
  const host = hostedHost(v.trim());
  return host ? undefined : 'Enter an http(s) URL, e.g. https://ai.data.cloud/api';
}

type Probe = { kind: 'ok' } | { kind: 'otherVersion'; version: ApiVersion } | { kind: 'failed'; error: unknown };

/**
 * Proves the key with the chosen API version. A "not found" there may mean the service speaks the
 * other version (a v1 path the service no longer has), so that one is tried too: the user is told
 * which to pick instead of a bare 404. Neither answering means the base URL is wrong.
 */
async function probeVersions(s: Services, baseUrl: string, apiKey: string, userId: string, version: ApiVersion): Promise<Probe> {
  const tryVersion = (v: ApiVersion): Promise<void> => s.connection.probeClient(baseUrl, apiKey, userId, v).sessions.list({ pageSize: 1 }).then(() => undefined);
  try {
    await tryVersion(version);
    return { kind: 'ok' };
  } catch (err) {
    if (!isTeamDataError(err) || err.httpStatus !== 404) return { kind: 'failed', error: err };
    const other: ApiVersion = version === 'v1' ? 'v2' : 'v1';
    const otherWorks = await tryVersion(other).then(() => true, () => false);
    if (otherWorks) return { kind: 'otherVersion', version: other };
    return { kind: 'failed', error: new Error(`neither the ${version} nor the ${other} API was found at ${baseUrl} (HTTP 404); check the base URL: it is the part before /${version}/team/…`) };
  }
}

/** Returns true when signed in at the end. */
export async function signIn(s: Services): Promise<boolean> {
  const settings = readSettings();
  let baseUrl = settings.baseUrl;
  if (baseUrl === '' || validUrl(baseUrl) !== undefined) {
    const entered = await s.prompts.input({
      title: 'Sign in to a hosted Team Data Analysis service (1/3)',
      prompt: 'Base URL of the service (paths like /v1/team/... are appended)',
      value: DEFAULT_HOSTED_URL,
      validate: validUrl,
    });
    if (entered === undefined) return false;
    baseUrl = entered.trim().replace(/\/+$/, '');
  }
  let userId = settings.userId;
  if (userId === '') {
    const entered = await s.prompts.input({
      title: 'Sign in (2/3)',
      prompt: 'Your user id (from the admin console\'s user list)',
      validate: (v) => (v.trim() === '' ? 'Enter your user id' : undefined),
    });
    if (entered === undefined) return false;
    userId = entered.trim();
  }
  const host = hostedHost(baseUrl) ?? baseUrl;
  const key = await s.prompts.input({
    title: `Sign in to ${host} (3/3)`,
    prompt: 'API key (shown once in the admin console when it was created)',
    password: true,
    validate: (v) => (v.trim() === '' ? 'Enter the API key' : /\s/.test(v.trim()) ? 'An API key has no spaces' : undefined),
  });
  if (key === undefined) return false;
  const apiKey = key.trim();

  const version = settings.apiVersion;
  const probe = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking the key with ${host}…` }, () => probeVersions(s, baseUrl, apiKey, userId, version));
  if (probe.kind === 'failed') {
    s.notifier.failure(`sign in to ${host}`, probe.error);
    return false;
  }
  if (probe.kind === 'otherVersion') {
    const use = `Use ${probe.version}`;
    const choice = await s.prompts.choose(
      `${host} speaks the ${probe.version} API, not ${version}: a ${version} request answered "not found". Use ${probe.version}?`,
      [use] as const,
      { modal: true, level: 'warning' },
    );
    if (choice !== use) return false;
    await updateSetting('apiVersion', probe.version);
  }

  if (settings.baseUrl !== baseUrl) await updateSetting('baseUrl', baseUrl);
  if (settings.userId !== userId) await updateSetting('userId', userId);
  const where = await s.keys.store(baseUrl, apiKey);
  await s.connection.refresh();
  s.datasets.refresh();
  s.sessions.refresh();
  const note = s.keys.envKey() ? ` Note: ${API_KEY_ENV} is set in the environment and is used instead of this key.` : '';
  s.notifier.info(`Signed in to ${host} as ${userId}${where === 'memory' ? ' (for this window only)' : ''}.${note}`);
  return true;
}

export async function signOut(s: Services): Promise<void> {
  const settings = readSettings();
  if (settings.baseUrl === '') {
    s.notifier.info('You are using the embedded local service, which needs no sign-in.');
    return;
  }
  await s.keys.clear(settings.baseUrl);
  await s.connection.refresh();
  s.datasets.refresh();
  s.sessions.refresh();
  const host = hostedHost(settings.baseUrl) ?? settings.baseUrl;
  const note = s.keys.envKey() ? ` ${API_KEY_ENV} is still set in the environment, so requests keep using that key.` : '';
  s.notifier.info(`Signed out of ${host}: the key was removed from this machine.${note}`);
}

/** Switches back to the embedded local service (clears teamData.baseUrl; keys stay stored). */
export async function useLocalService(s: Services): Promise<void> {
  await updateSetting('baseUrl', undefined);
  await s.connection.refresh();
  s.datasets.refresh();
  s.sessions.refresh();
}
