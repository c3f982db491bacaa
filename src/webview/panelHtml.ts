/**
 * The answer panel's HTML document. Pure (no DOM, no vscode), so the extension host imports it
 * and tests serve exactly the same document.
 *
 * The CSP is the whole security boundary of the page: scripts only by nonce (our bundle), styles,
 * images and fonts only from the webview's own resource origin (`cspSource`), images also as
 * `data:` (highlight-free, inline-free UI never needs more), nothing else — no `connect-src`, so
 * the page cannot fetch, and no remote origin anywhere.
 */
import { escapeHtml } from '../shared/html';

export interface PanelHtmlOptions {
  /** `webview.asWebviewUri(dist/webview.js)` */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview.css)` */
  styleUri: string;
  /** `webview.cspSource` */
  cspSource: string;
  /** A fresh random value per render (base64 or hex, at least 16 characters). */
  nonce: string;
  /** The panel title (the session's), shown until the webview has rendered its own. */
  title: string;
}

export const NONCE = /^[A-Za-z0-9+/=_-]{16,128}$/;
/**
 * What `webview.cspSource` looks like: space-separated origins / scheme sources, and the quoted
 * keyword `'self'` (code-server's is `'self' https://*.vscode-cdn.net`); nothing that ends the
 * directive or adds another keyword such as 'unsafe-inline'.
 */
const CSP_SOURCE_TOKEN = /^(?:'self'|[A-Za-z0-9+.\-:/*_]+)$/;

export function isCspSourceList(value: string): boolean {
  const tokens = value.split(' ').filter((t) => t.length > 0);
  return value.length <= 512 && tokens.length > 0 && tokens.every((t) => CSP_SOURCE_TOKEN.test(t));
}

/** The Content-Security-Policy the panel runs under (also used by the browser tests). */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/**
 * A webview document under the panel's policy, around `body` (trusted markup of ours). Throws when
 * `nonce` or `cspSource` could smuggle extra CSP directives or markup (they come from the host,
 * but a typo must not weaken the policy). `who` names the caller in that error.
 */
export function webviewDocument(o: { cspSource: string; nonce: string; styleUri: string; scriptUri: string; title: string; body: string }, who: string): string {
  if (!NONCE.test(o.nonce)) throw new Error(`${who}: the nonce must be 16-128 base64/hex characters`);
  if (!isCspSourceList(o.cspSource)) throw new Error(`${who}: cspSource is not a CSP source list`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(panelCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
${o.body}
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}

/** Builds the panel document (see {@link webviewDocument}). */
export function renderPanelHtml(o: PanelHtmlOptions): string {
  return webviewDocument({ ...o, body: '<div id="app" class="app" data-state="loading"><p class="loading" role="status">Loading the answer panel…</p></div>' }, 'renderPanelHtml');
}
