/**
 * The extension's settings, read in one place and validated, so a hand-edited settings.json with
 * a wrong type degrades to the default instead of reaching the service.
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { JOB_MODES, LANGUAGE_TYPES, type JobMode, type LanguageType } from '../shared/domain';
import { DEFAULT_TIMEOUT_SECONDS, LOCAL_MODEL_MODES, type LocalModelSettings } from './model/modelChoice';

export const CONFIG_SECTION = 'teamData';

export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export interface Settings {
  /** Hosted service base URL; empty means the embedded local service. */
  baseUrl: string;
  userId: string;
  /** v2 is the service's current API (the default); v1 stays selectable. */
  apiVersion: ApiVersion;
  language: LanguageType;
  jobMode: JobMode;
  maxMessagesInContext: number;
  requestTimeoutSeconds: number;
  /** The local service's data folder; empty: the folder shared with the CLI and MCP. */
  localDataFolder: string;
  /** The local service reads in place files with other hard links too (`--read-hard-links`). */
  localServiceReadHardLinks: boolean;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function intIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

/** An absolute folder (a leading `~` is the home folder); anything else means the default. */
function folderSetting(value: unknown): string {
  if (typeof value !== 'string') return '';
  const v = value.trim().replace(/^~(?=$|[\\/])/, homedir());
  return isAbsolute(v) ? v : '';
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const baseUrl = c.get<unknown>('baseUrl');
  const userId = c.get<unknown>('userId');
  return {
    baseUrl: typeof baseUrl === 'string' ? baseUrl.trim() : '',
    userId: typeof userId === 'string' ? userId.trim() : '',
    apiVersion: oneOf(c.get('apiVersion'), API_VERSIONS, 'v2'),
    language: oneOf(c.get('language'), LANGUAGE_TYPES, 'AUTO'),
    jobMode: oneOf(c.get('jobMode'), JOB_MODES, 'AUTO'),
    maxMessagesInContext: intIn(c.get('maxMessagesInContext'), 0, 10, 10),
    requestTimeoutSeconds: intIn(c.get('requestTimeoutSeconds'), 1, 3600, 30),
    localDataFolder: folderSetting(c.get('localDataFolder')),
    localServiceReadHardLinks: c.get<unknown>('localService.readHardLinks') === true,
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The language model settings (teamData.localModel*); the endpoint's key is in SecretStorage only. */
export function readLocalModelSettings(): LocalModelSettings {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  return {
    // The others are named beside `localModel`, not under it: VS Code ignores `a.b.c` settings
    // when `a.b` holds a value.
    mode: oneOf(c.get('localModel'), LOCAL_MODEL_MODES, 'off'),
    vscodeModel: text(c.get('localModelId')),
    endpointUrl: text(c.get('localModelEndpointUrl')),
    endpointModel: text(c.get('localModelEndpointModel')),
    timeoutSeconds: intIn(c.get('localModelTimeoutSeconds'), 5, 600, DEFAULT_TIMEOUT_SECONDS),
  };
}

export const LOCAL_MODEL_KEYS = ['localModel', 'localModelId', 'localModelEndpointUrl', 'localModelEndpointModel', 'localModelTimeoutSeconds'] as const;

export function affectsLocalModel(e: vscode.ConfigurationChangeEvent): boolean {
  return LOCAL_MODEL_KEYS.some((k) => e.affectsConfiguration(`${CONFIG_SECTION}.${k}`));
}

/** Writes a setting where it takes effect: the workspace when it sets one, else the user scope. */
export async function updateSetting(key: 'baseUrl' | 'userId' | 'apiVersion' | (typeof LOCAL_MODEL_KEYS)[number], value: string | undefined): Promise<void> {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  // A workspace value overrides the user's: writing only the user scope would change nothing.
  const target = c.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}

export function affectsConnection(e: vscode.ConfigurationChangeEvent): boolean {
  return ['baseUrl', 'userId', 'apiVersion', 'requestTimeoutSeconds'].some((k) => e.affectsConfiguration(`${CONFIG_SECTION}.${k}`));
}
