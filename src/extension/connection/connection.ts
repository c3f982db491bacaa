/**
 * Which service the extension talks to, and the client for it. An empty `teamData.baseUrl` means
 * the embedded local service (started on first use); otherwise the hosted service with the key
 * from {@link KeyStore}. Everything else asks this class for a client, so switching services is a
 * settings change, not a code path.
 */
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import { TeamDataClient, v1Codec } from '../../api/index';
import { v2Codec } from '../../shared/codecV2';
import { readSettings, type ApiVersion, type Settings } from '../config';
import type { Log } from '../log';
import type { LocalServiceSupervisor, SupervisorState } from '../localService/supervisor';
import type { KeySource, KeyStore } from './keyStore';

export type ConnectionMode = 'local' | 'hosted';

export interface ConnectionInfo {
  mode: ConnectionMode;
  /** "Local" or the hosted service's host name. */
  label: string;
  /** The hosted base URL (absent for local). */
  baseUrl?: string;
  /** Local: always true. Hosted: a key is available. */
  signedIn: boolean;
  keySource?: KeySource;
  userId: string;
  /** The API version the client speaks. */
  apiVersion: ApiVersion;
  localState?: SupervisorState;
}

export type ConnectionProblem = 'notSignedIn' | 'noUserId' | 'badBaseUrl';

/** A connection that cannot be used yet; `problem` tells the UI which fix to offer. */
export class ConnectionError extends Error {
  constructor(
    readonly problem: ConnectionProblem,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** The user id the local service records: the setting, else the OS user name. */
export function localUserId(setting: string): string {
  if (setting) return setting;
  try {
    return userInfo().username || 'local-user';
  } catch {
    return 'local-user';
  }
}

/** The base URL's host for display, or undefined when the URL is not http(s). */
export function hostedHost(baseUrl: string): string | undefined {
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}

export class ConnectionManager implements vscode.Disposable {
  private cached: { signature: string; client: TeamDataClient } | undefined;
  private secretRegistration: vscode.Disposable | undefined;
  private infoValue: ConnectionInfo;
  private readonly changed = new vscode.EventEmitter<ConnectionInfo>();
  /** Fires when the service, the sign-in state or the local service's state changes. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly keys: KeyStore,
    private readonly supervisor: LocalServiceSupervisor,
    private readonly log: Log,
  ) {
    this.infoValue = this.baseInfo(readSettings(), undefined);
    this.subscriptions.push(
      keys.onDidChange(() => void this.refresh()),
      this.supervisor.onDidChangeState(() => void this.refresh()),
    );
    void this.refresh();
  }

  get info(): ConnectionInfo {
    return this.infoValue;
  }

  /** A stable name of the current service + user, for remembering per-service choices. */
  identity(): string {
    const s = readSettings();
    return s.baseUrl === '' ? 'local' : `${s.baseUrl.replace(/\/+$/, '')}|${s.userId}`;
  }

  /** Re-reads settings and the key; call after settings or sign-in changes. */
  async refresh(): Promise<ConnectionInfo> {
    const settings = readSettings();
    const key = settings.baseUrl === '' ? undefined : await this.keys.get(settings.baseUrl).catch(() => undefined);
    const next = this.baseInfo(settings, key?.source);
    const before = JSON.stringify(this.infoValue);
    this.infoValue = next;
    if (JSON.stringify(next) !== before) this.changed.fire(next);
    return next;
  }

  /**
   * The client of the current service. Starts the local service when needed.
   * @throws ConnectionError when the hosted service is not configured or signed in;
   *   LocalServiceError when the local service cannot run.
   */
  async client(): Promise<TeamDataClient> {
    const settings = readSettings();
    if (settings.baseUrl === '') {
      // The first start opens DuckDB and can take seconds: show it in the status bar.
      const endpoint = this.supervisor.endpoint ?? (await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Team Data: starting the local service…' },
        () => this.supervisor.ensureStarted(),
      ));
      return this.clientFor(settings, endpoint.baseUrl, endpoint.apiKey, localUserId(settings.userId), true);
    }
    if (hostedHost(settings.baseUrl) === undefined) {
      throw new ConnectionError('badBaseUrl', `the setting teamData.baseUrl is not an http(s) URL`);
    }
    const key = await this.keys.get(settings.baseUrl);
    if (!key) throw new ConnectionError('notSignedIn', `you are not signed in to ${hostedHost(settings.baseUrl) ?? 'the hosted service'}`);
    if (settings.userId === '') throw new ConnectionError('noUserId', 'the setting teamData.userId is empty; the hosted service needs your user id');
    return this.clientFor(settings, settings.baseUrl, key.key, settings.userId);
  }

  /** A client for explicit credentials (sign-in validates a key before storing it). */
  probeClient(baseUrl: string, apiKey: string, userId: string, apiVersion?: ApiVersion): TeamDataClient {
    // Kept for the session even if the key turns out wrong: a mistyped key must not reach the log either.
    this.subscriptions.push(this.log.addSecret(apiKey));
    const settings = readSettings();
    return this.newClient(baseUrl, apiKey, userId, settings.requestTimeoutSeconds, apiVersion ?? settings.apiVersion);
  }

  private newClient(baseUrl: string, apiKey: string, userId: string, timeoutSeconds: number, apiVersion: ApiVersion, local = false): TeamDataClient {
    return new TeamDataClient({
      // The window's lease on the shared local service: files read in place must be in its folders.
      ...(local ? { localLease: () => this.supervisor.leaseId } : {}),
      baseUrl,
      apiKey,
      userId,
      codec: apiVersion === 'v2' ? v2Codec : v1Codec,
      timeoutMs: timeoutSeconds * 1000,
      logger: (level, message) => this.log.write(level, message),
    });
  }

  private clientFor(settings: Settings, baseUrl: string, apiKey: string, userId: string, local = false): TeamDataClient {
    const signature = JSON.stringify([baseUrl, apiKey, userId, settings.requestTimeoutSeconds, settings.apiVersion, local]);
    if (this.cached?.signature === signature) return this.cached.client;
    this.secretRegistration?.dispose();
    this.secretRegistration = this.log.addSecret(apiKey);
    const client = this.newClient(baseUrl, apiKey, userId, settings.requestTimeoutSeconds, settings.apiVersion, local);
    this.cached = { signature, client };
    return client;
  }

  private baseInfo(settings: Settings, keySource: KeySource | undefined): ConnectionInfo {
    if (settings.baseUrl === '') {
      return { mode: 'local', label: 'Local', signedIn: true, userId: localUserId(settings.userId), apiVersion: settings.apiVersion, localState: this.supervisor?.state ?? 'stopped' };
    }
    const info: ConnectionInfo = {
      mode: 'hosted',
      label: hostedHost(settings.baseUrl) ?? 'invalid base URL',
      baseUrl: settings.baseUrl,
      signedIn: keySource !== undefined,
      userId: settings.userId,
      apiVersion: settings.apiVersion,
    };
    if (keySource) info.keySource = keySource;
    return info;
  }

  dispose(): void {
    this.secretRegistration?.dispose();
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}
