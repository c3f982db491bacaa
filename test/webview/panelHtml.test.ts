import { strict as assert } from 'node:assert';
import { panelCsp, renderPanelHtml } from '../../src/webview/panelHtml';

const base = {
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
  cspSource: 'https://*.vscode-cdn.net',
  nonce: 'q1w2e3r4t5y6u7i8o9p0+/==',
  title: 'Sales',
};

describe('panel HTML', () => {
  it('carries the strict CSP and loads only the nonce-tagged bundle', () => {
    const html = renderPanelHtml(base);
    const csp = panelCsp(base.cspSource, base.nonce);
    assert.equal(csp, "default-src 'none'; script-src 'nonce-q1w2e3r4t5y6u7i8o9p0+/=='; style-src https://*.vscode-cdn.net; img-src https://*.vscode-cdn.net data:; font-src https://*.vscode-cdn.net");
    assert.ok(html.includes(`content="${csp.replace(/'/g, '&#39;')}"`));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(html.includes(`<script nonce="${base.nonce}" src="${base.scriptUri}"></script>`));
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
    assert.ok(!/style=/i.test(html), 'no inline styles');
  });

  it('escapes the title and URIs', () => {
    const html = renderPanelHtml({ ...base, title: '</title><script>alert(1)</script>', scriptUri: 'x" onload="alert(1)' });
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(html.includes('&#60;/title&#62;'));
    assert.ok(html.includes('src="x&#34; onload=&#34;alert(1)"'));
  });

  it('refuses nonces and CSP sources that could widen the policy', () => {
    assert.throws(() => renderPanelHtml({ ...base, nonce: 'short' }), /nonce/);
    assert.throws(() => renderPanelHtml({ ...base, nonce: "abcdefghijklmnop' 'unsafe-inline" }), /nonce/);
    assert.throws(() => renderPanelHtml({ ...base, cspSource: "https://a; script-src 'unsafe-inline'" }), /cspSource/);
    assert.throws(() => renderPanelHtml({ ...base, cspSource: '' }), /cspSource/);
    assert.throws(() => renderPanelHtml({ ...base, cspSource: "'self' 'unsafe-inline'" }), /cspSource/);
    assert.throws(() => renderPanelHtml({ ...base, cspSource: "'self'\nscript-src *" }), /cspSource/);
    // code-server's real value: the quoted 'self' keyword plus its CDN origin.
    const served = renderPanelHtml({ ...base, cspSource: "'self' https://*.vscode-cdn.net" });
    assert.match(served, /style-src &#39;self&#39; https:\/\/\*\.vscode-cdn\.net/);
  });
});
