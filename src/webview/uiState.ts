/**
 * UI state that survives hiding the panel and reloading the window: the draft question, scroll
 * position, which steps the user opened or closed, and table sorts. Saved with `setState` and
 * mirrored to the host (for the panel serializer), both debounced because scrolling and typing
 * change it many times a second.
 */
import type { PersistedUiState } from '../shared/protocol';
import type { HostChannel } from './hostChannel';

const SAVE_DELAY_MS = 250;
/** Bound on remembered entries so a long-lived panel's state stays small. */
const MAX_ENTRIES = 500;

function trim<T>(record: Record<string, T>): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length <= MAX_ENTRIES) return record;
  const out: Record<string, T> = {};
  for (const k of keys.slice(keys.length - MAX_ENTRIES)) out[k] = record[k] as T;
  return out;
}

export class UiStateStore {
  private state: PersistedUiState;
  private timer: number | undefined;

  constructor(private readonly host: HostChannel) {
    this.state = host.loadState() ?? { v: 1, draft: '', scrollTop: 0, collapsed: {}, tableSort: {} };
  }

  get current(): Readonly<PersistedUiState> {
    return this.state;
  }

  update(change: (s: PersistedUiState) => void): void {
    change(this.state);
    this.state.collapsed = trim(this.state.collapsed);
    this.state.tableSort = trim(this.state.tableSort);
    if (this.timer === undefined) this.timer = window.setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Saves now (also called when the page is hidden, so nothing typed is lost). */
  flush(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = undefined;
    const snapshot: PersistedUiState = JSON.parse(JSON.stringify(this.state)) as PersistedUiState;
    this.host.saveState(snapshot);
    this.host.post({ type: 'uiState', state: snapshot });
  }
}
