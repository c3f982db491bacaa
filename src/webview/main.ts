/**
 * Webview entry: connects to the host, renders the panel, validates every incoming message and
 * performs the ready handshake (the host posts nothing before it sees `ready`).
 */
import { PatchConflictError } from '../shared/answerPatch';
import { PROTOCOL_VERSION } from '../shared/protocol';
import { isHostToWebview } from '../shared/protocolGuards';
import { warmUpMarkdown } from './blocks/markdown';
import { onFrameError } from './frame';
import { connectHost } from './hostChannel';
import { PanelApp } from './panelApp';
import { UiStateStore } from './uiState';

function describe(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
}

function start(): void {
  const root = document.getElementById('app');
  if (!root) return;
  const host = connectHost();
  const ui = new UiStateStore(host);
  const app = new PanelApp(root, host, ui);
  const report = (err: unknown): void => host.post({ type: 'webviewError', message: describe(err) });
  let dropped = 0;

  onFrameError(report);
  window.addEventListener('error', (e) => report(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => report(e.reason));
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const m = event.data;
    if (!isHostToWebview(m)) {
      // Garbled or foreign messages are dropped; tell the host once in a while, not per message.
      if (dropped++ % 100 === 0) host.post({ type: 'webviewError', message: 'dropped an invalid message from the host' });
      return;
    }
    try {
      app.handle(m);
    } catch (err) {
      report(err);
      // A patch that does not continue our copy of the answer: ask for the whole state again.
      if (err instanceof PatchConflictError) host.post({ type: 'ready', protocolVersion: PROTOCOL_VERSION, resync: true });
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') ui.flush();
  });
  host.post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  warmUpMarkdown();
}

start();
