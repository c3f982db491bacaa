/**
 * Where the hosted API key lives: SecretStorage, one entry per service base URL, so switching
 * hosts never sends one host's key to another. `TEAM_DATA_API_KEY` in the environment overrides
 * it (CI, and Linux machines without a keyring). When SecretStorage cannot persist, the key is
 * kept in memory for this window and the user is told once how to fix the keyring.
 *
 * The key never goes to settings, the log, the webview or an error text.
 */
import * as vscode from 'vscode';

export const API_KEY_ENV = 'TEAM_DATA_API_KEY';

export type KeySource = 'env' | 'secretStorage' | 'memory';

export interface StoredKey {
  key: string;
  source: KeySource;
}

/** The SecretStorage entry name for a base URL (normalised so trailing slashes do not matter). */
export function secretName(baseUrl: string): string {
  let norm = baseUrl.trim().replace(/\/+$/, '');
  try {
    const u = new URL(norm);
    norm = `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: the raw text still names one entry consistently.
  }
  return `teamData.apiKey:${norm}`;
}

export class KeyStore implements vscode.Disposable {
  private readonly memory = new Map<string, string>();
  private warnedAboutKeyring = false;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv,
    private readonly warn: (message: string) => void,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith('teamData.apiKey:')) this.changed.fire();
    });
  }

  /** The environment's key, if set (it wins over stored keys). */
  envKey(): string | undefined {
    const v = this.env[API_KEY_ENV];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  }

  async get(baseUrl: string): Promise<StoredKey | undefined> {
    const fromEnv = this.envKey();
    if (fromEnv) return { key: fromEnv, source: 'env' };
    const name = secretName(baseUrl);
    const inMemory = this.memory.get(name);
    if (inMemory) return { key: inMemory, source: 'memory' };
    try {
      const stored = await this.secrets.get(name);
      if (stored) return { key: stored, source: 'secretStorage' };
    } catch {
      // An unreadable keyring reads as "not signed in"; sign-in will explain the keyring.
    }
    return undefined;
  }

  /**
   * Stores the key. Returns where it ended up: `secretStorage`, or `memory` when the keyring could
   * not persist it (the user is told once per window what to do).
   */
  async store(baseUrl: string, key: string): Promise<KeySource> {
    const name = secretName(baseUrl);
    let persisted = false;
    try {
      await this.secrets.store(name, key);
      persisted = (await this.secrets.get(name)) === key;
    } catch {
      persisted = false;
    }
    if (persisted) {
      this.memory.delete(name);
      this.changed.fire();
      return 'secretStorage';
    }
    this.memory.set(name, key);
    this.changed.fire();
    if (!this.warnedAboutKeyring) {
      this.warnedAboutKeyring = true;
      this.warn(
        'Your API key could not be saved in the system keyring, so it is kept for this window only. ' +
          'To keep it, make a keyring available (e.g. install and unlock gnome-keyring or KWallet, or start VS Code with ' +
          '--password-store="gnome-libsecret"), or set the TEAM_DATA_API_KEY environment variable before starting VS Code.',
      );
    }
    return 'memory';
  }

  async clear(baseUrl: string): Promise<void> {
    const name = secretName(baseUrl);
    this.memory.delete(name);
    try {
      await this.secrets.delete(name);
    } finally {
      this.changed.fire();
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.memory.clear();
  }
}
