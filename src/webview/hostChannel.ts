/**
 * The webview's side of the channel to the extension host: typed posts, and the state VS Code
 * keeps for a hidden or restored panel (`getState`/`setState`, so the panel does not need
 * `retainContextWhenHidden`).
 */
import { isPersistedUiState } from '../shared/protocolGuards';
import type { PersistedUiState, WebviewToHost } from '../shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel {
  post(message: WebviewToHost): void;
  /** The state saved before the panel was hidden or the window reloaded, if it is still valid. */
  loadState(): PersistedUiState | undefined;
  saveState(state: PersistedUiState): void;
}

/** `acquireVsCodeApi` may be called once per page; this is that call. */
export function connectHost(): HostChannel {
  if (typeof acquireVsCodeApi !== 'function') throw new Error('not running inside a VS Code webview');
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    loadState: () => {
      const s = api.getState();
      return isPersistedUiState(s) ? s : undefined;
    },
    saveState: (state) => api.setState(state),
  };
}
