/**
 * Explorer webview entry: connects to the host, validates every incoming message (anything that
 * is not an ExplorerHostToWebview is dropped) and performs the ready handshake — the host posts
 * nothing before it sees `ready`.
 */
import { EXPLORER_PROTOCOL_VERSION, type ExplorerWebviewToHost } from '../../shared/explorerProtocol';
import { isExplorerHostToWebview } from '../../shared/explorerGuards';
import { ExplorerApp } from './explorerApp';

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function start(): void {
  const root = document.getElementById('app');
  if (!root || typeof acquireVsCodeApi !== 'function') return;
  const api = acquireVsCodeApi();
  const host = { post: (m: ExplorerWebviewToHost): void => api.postMessage(m) };
  const app = new ExplorerApp(root, host);
  let dropped = 0;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const m = event.data;
    if (!isExplorerHostToWebview(m)) {
      dropped++;
      document.body.setAttribute('data-dropped', String(dropped));
      return;
    }
    app.handle(m);
  });
  host.post({ type: 'ready', protocol: EXPLORER_PROTOCOL_VERSION });
}

start();
