import { userInfo } from 'node:os';

/**
 * The user id of the CLI and MCP on the local service: the same as VS Code's by default (the
 * account name), so every client of one data folder sees the same sessions.
 */
export function localUserId(env: NodeJS.ProcessEnv): string {
  try {
    return env['TEAM_DATA_USER_ID'] || userInfo().username || 'local-user';
  } catch {
    return 'local-user';
  }
}
