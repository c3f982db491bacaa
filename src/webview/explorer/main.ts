/**
 * Explorer webview entry: connects to the host, validates every incoming message (anything that
 * is not an ExplorerHostToWebview is dropped) and performs the ready handshake — the host posts
 * nothing before it sees `ready`. A panel's origin (`panelState`) goes into the webview's state,
 * where the panel serializer finds it after a window reload.
 */
import { EXPLORER_PROTOCOL_VERSION, type ExplorerPanelState, type ExplorerWebviewToHost } from '../../shared/explorerProtocol';
import { isExplorerHostToWebview } from '../../shared/explorerGuards';
import { ExplorerApp } from './explorerApp';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function describe(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
}

function start(): void {
  const root = document.getElementById('app');
  if (!root || typeof acquireVsCodeApi !== 'function') return;
  const api = acquireVsCodeApi();
  const host = {
    post: (m: ExplorerWebviewToHost): void => api.postMessage(m),
    saveState: (state: ExplorerPanelState): void => api.setState(state),
  };
  const report = (err: unknown): void => host.post({ type: 'webviewError', message: describe(err) });
  window.addEventListener('error', (e) => report(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => report(e.reason));
  const app = new ExplorerApp(root, host);
  let dropped = 0;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const m = event.data;
    if (!isExplorerHostToWebview(m)) {
      // Garbled or foreign messages are dropped; tell the host once in a while, not per message.
      if (dropped++ % 100 === 0) report('dropped an invalid message from the host');
      document.body.setAttribute('data-dropped', String(dropped));
      return;
    }
    try {
      app.handle(m);
    } catch (err) {
      report(err);
    }
  });
  host.post({ type: 'ready', protocol: EXPLORER_PROTOCOL_VERSION });
}

start();
