/** An in-memory stand-in for VS Code's Memento (workspaceState): values kept as JSON, as VS Code keeps them. */
import type { StateStore } from '../../../../src/extension/recentState';

export function memento(): StateStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: async (key: string, value: unknown) => {
      data.set(key, JSON.parse(JSON.stringify(value)));
    },
  };
}
