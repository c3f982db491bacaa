/**
 * Enforces design.md's layering: the core (api/, server/, shared/, cli/) runs without the editor,
 * and shared/ also runs in the webview, so it may not touch node or the DOM.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(sourceFiles(p));
    else if (/\.(ts|tsx|mts|cts)$/.test(name)) out.push(p);
  }
  return out;
}

/** Module specifiers of static imports, dynamic imports and requires. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1] as string);
  return specs;
}

function violations(layer: string, forbidden: (spec: string) => boolean): string[] {
  return sourceFiles(join(root, layer)).flatMap((f) =>
    importsOf(f).filter(forbidden).map((s) => `${relative(root, f)} imports ${s}`),
  );
}

const NODE_BUILTINS = new Set([
  'fs', 'path', 'os', 'http', 'https', 'net', 'crypto', 'stream', 'child_process', 'url', 'util', 'events',
  'buffer', 'zlib', 'worker_threads', 'tls', 'dns', 'readline', 'process', 'timers',
]);

describe('layering (design.md)', () => {
  for (const layer of ['api', 'server', 'shared', 'cli']) {
    it(`${layer}/ never imports vscode`, () => {
      assert.deepEqual(violations(layer, (s) => s === 'vscode'), []);
    });
  }

  it('shared/ imports neither node modules nor anything outside shared/', () => {
    const bad = violations('shared', (s) => s.startsWith('node:') || NODE_BUILTINS.has(s) || s.startsWith('..'));
    assert.deepEqual(bad, []);
  });

  it('api/ does not import server/ or cli/, and server/ does not import api/ or cli/', () => {
    const api = violations('api', (s) => /(^|\/)(server|cli|extension|webview)\//.test(s));
    const server = violations('server', (s) => /\.\.\/(api|cli|extension|webview)(\/|$)/.test(s));
    assert.deepEqual([...api, ...server], []);
  });

  it('the checker itself finds imports (guards against a regex that matches nothing)', () => {
    const specs = importsOf(join(root, 'shared', 'codecV1.ts'));
    assert.ok(specs.includes('./blockCodecV1'), `found: ${specs.join(', ')}`);
  });
});
