import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** The embedded service's data folder: explicit, else XDG data home, else ~/.local/share. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local', 'share'), 'team-data');
}

/** A random key for a local service that nobody else should be able to call. */
export function randomApiKey(): string {
  return `local-${randomBytes(24).toString('base64url')}`;
}
