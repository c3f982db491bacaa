/**
 * The Data Explorer's HTML document (issue 27). Pure (no DOM, no vscode), so the custom editor
 * imports it and the browser tests serve exactly the same document. Same CSP as the answer panel
 * (panelCsp): scripts by nonce only, styles/images/fonts from the webview's resource origin,
 * no `connect-src`, nothing remote. The explorer draws its icons and sparklines as DOM SVG, so it
 * needs no `data:` images either, but shares the one policy rather than keeping a second one.
 */
import { escapeHtml } from '../../shared/html';
import { webviewDocument } from '../panelHtml';

export interface ExplorerHtmlOptions {
  /** `webview.asWebviewUri(dist/explorer.js)` */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/explorer.css)` */
  styleUri: string;
  /** `webview.cspSource` */
  cspSource: string;
  /** A fresh random value per render (base64 or hex, 16-128 characters). */
  nonce: string;
  /** The file's base name, shown until the webview has drawn its own frame. */
  title: string;
}

export function renderExplorerHtml(o: ExplorerHtmlOptions): string {
  const body = `<div id="app" class="x-app" data-state="loading"><p class="x-loading" role="status">Opening ${escapeHtml(o.title)}…</p></div>
<div id="announcer" class="sr-only" role="status" aria-live="polite"></div>`;
  return webviewDocument({ ...o, body }, 'renderExplorerHtml');
}
