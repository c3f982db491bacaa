/**
 * VS Code's default webview stylesheet, read from the code-server that `npm run test:setup`
 * (scripts/vscode/ensureCodeServer.sh) installs outside the repo, so the panel is checked against
 * the real thing rather than a copy. VS Code puts these styles first in every webview's <head>;
 * its webview host page (pre/index.html) holds them, today as the text of a
 * `<style id="_defaultStyles">` that a script builds from a template literal.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findCodeServer } from '../../scripts/vscode/codeServer';

/** Inside the code-server package: VS Code's webview host page. */
const WEBVIEW_HOST_PAGE = ['lib', 'vscode', 'out', 'vs', 'workbench', 'contrib', 'webview', 'browser', 'pre', 'index.html'];

/** The code-server package folder: the binary is a link to its `out/node/entry.js`. */
function codeServerPackageDir(): string {
  let dir = dirname(realpathSync(findCodeServer()));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'code-server') return dir;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no code-server package.json above ${realpathSync(findCodeServer())}`);
    dir = parent;
  }
}

/** The stylesheet's text in the host page, or undefined when neither known form is there. */
export function extractDefaultStyles(html: string): string | undefined {
  // As markup: <style id="_defaultStyles">…</style> (any attribute order, either quote).
  const element = /<style\b[^>]*\bid\s*=\s*["']?_defaultStyles["']?[^>]*>([\s\S]*?)<\/style>/i.exec(html);
  if (element?.[1]?.trim()) return element[1];
  // As script (VS Code 1.100): `defaultStyles.textContent = \`…\`;`, or a `defaultStyles = \`…\`` string.
  const literal = /\bdefaultStyles(?:\.textContent)?\s*=\s*`((?:[^`\\]|\\.)*)`/.exec(html);
  const text = literal?.[1];
  if (!text?.trim()) return undefined;
  // Interpolations or escapes would need a JS evaluator; refuse rather than serve something else.
  if (text.includes('${') || text.includes('\\')) return undefined;
  return text;
}

let cached: string | undefined;

/**
 * VS Code's default webview styles from the installed code-server.
 * @throws with the file it looked in and what to do, when code-server is missing or the page no
 * longer holds the styles in a form this reads (never an empty stylesheet that would pass silently).
 */
export function vscodeDefaultStyles(): string {
  if (cached !== undefined) return cached;
  const page = join(codeServerPackageDir(), ...WEBVIEW_HOST_PAGE);
  let html: string;
  try {
    html = readFileSync(page, 'utf8');
  } catch (e) {
    throw new Error(`VS Code's webview host page is not at ${page} (${(e as Error).message}); run npm run test:setup`);
  }
  const css = extractDefaultStyles(html);
  if (css === undefined || !/\bcode\s*\{/.test(css)) {
    throw new Error(
      `VS Code's default webview styles were not found in ${page}: expected a <style id="_defaultStyles"> ` +
        'element or a `defaultStyles` template literal with a `code { … }` rule; update test/webview/vscodeDefaultStyles.ts',
    );
  }
  cached = css;
  return css;
}
