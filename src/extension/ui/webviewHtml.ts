/**
 * A webview's document from one of our browser bundles in `dist/` (the answer panel's `webview`,
 * the explorer's `explorer`), with a fresh nonce and the webview's own resource origin. A missing
 * bundle (a checkout that was never built) gives a page that says how to build it, not a blank one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { escapeHtml } from '../../shared/html';

export interface BundleDocument {
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  nonce: string;
  title: string;
}

export function bundleHtml(
  webview: vscode.Webview, distUri: vscode.Uri, bundle: string, what: string, title: string,
  render: (o: BundleDocument) => string, logError: (message: string) => void,
): string {
  const script = vscode.Uri.joinPath(distUri, `${bundle}.js`);
  const style = vscode.Uri.joinPath(distUri, `${bundle}.css`);
  if (!existsSync(script.fsPath)) {
    logError(`The ${what} bundle is missing (${script.fsPath}); run "npm run build"`);
    return `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none';"></head><body><p>The ${escapeHtml(what)} is not built: run <code>npm run build</code> and reload the window.</p><p>${escapeHtml(title)}</p></body></html>`;
  }
  return render({
    scriptUri: webview.asWebviewUri(script).toString(),
    styleUri: webview.asWebviewUri(style).toString(),
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    title,
  });
}
