/**
 * Small records the extension keeps in a `vscode.Memento` (workspace or global state) by key, each
 * bounded: a new entry goes last and the oldest go first, so the state never grows without limit.
 * Does not import vscode: the node tests pass a plain store.
 */

/** The part of a `vscode.Memento` used here. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/**
 * Stores `current` (the record as the caller read it) at `storeKey` with `value` under `key` as its
 * newest entry, keeping only the `max` newest.
 */
export async function putRecent<T>(state: StateStore, storeKey: string, current: Readonly<Record<string, T>>, key: string, value: T, max: number): Promise<void> {
  const all: Record<string, T> = { ...current };
  delete all[key];
  all[key] = value;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - max))) delete all[k];
  await state.update(storeKey, all);
}
