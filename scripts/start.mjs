// `npm start`, first half. This file runs before node_modules exists, so it uses nothing but
// Node: it checks Node's version, runs `npm ci` when the dependencies are missing, and then loads
// the TypeScript launcher (scripts/start.ts) in this same process through tsx, so Ctrl+C reaches
// one process that knows everything it started.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const say = (line) => process.stdout.write(`[start] ${line}\n`);

function checkNode() {
  const wanted = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).engines?.node ?? '>=20';
  const min = /(\d+)\.(\d+)\.(\d+)/.exec(wanted) ?? ['', '20', '0', '0'];
  const have = process.versions.node.split('.').map(Number);
  const need = min.slice(1).map(Number);
  for (let i = 0; i < 3; i++) {
    if (have[i] > need[i]) return;
    if (have[i] < need[i]) {
      process.stderr.write(`[start] Node ${process.versions.node} is too old: this project needs Node ${wanted}.\n`);
      process.exit(1);
    }
  }
}

/** True when the dependencies the launcher and the build need are installed. */
function dependenciesInstalled() {
  const need = ['tsx', 'esbuild', '@vscode/vsce', 'playwright-core', '@duckdb/node-api'];
  return existsSync(join(repo, 'node_modules', '.package-lock.json')) && need.every((p) => existsSync(join(repo, 'node_modules', p, 'package.json')));
}

checkNode();
say(`Node ${process.versions.node} on ${process.platform}-${process.arch}`);
if (!dependenciesInstalled()) {
  say('installing dependencies with npm ci (first run only; about a minute)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const shell = process.platform === 'win32';
  const ci = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: repo, stdio: ['ignore', 'inherit', 'pipe'], shell, encoding: 'utf8' });
  if (ci.status !== 0) {
    // npm ci refuses a lock file that misses an entry (e.g. another platform's optional native
    // binding the registry did not have when the lock was written). npm install --no-save
    // installs the same packages for this machine and leaves package.json and the lock as they are.
    const reasons = (ci.stderr ?? '').split('\n').filter((l) => /^npm error (code|\S.*(lock|Missing|match))/i.test(l)).slice(0, 6);
    process.stderr.write(`[start] npm ci failed:\n${reasons.join('\n') || (ci.stderr ?? '').slice(-1500)}\n`);
    say('trying npm install --no-save instead (it does not change package.json or package-lock.json)');
    const install = spawnSync(npm, ['install', '--no-save', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit', shell });
    if (install.status !== 0 || !dependenciesInstalled()) {
      process.stderr.write('[start] installing the dependencies failed (see above); fix that and run npm start again.\n');
      process.exit(install.status || 1);
    }
  }
} else {
  say('dependencies are installed');
}

const require = createRequire(import.meta.url);
const { register } = require('tsx/cjs/api');
register();
const { main } = require('./start.ts');
// Exit explicitly: a stray handle (a watcher a library left open) must not keep npm start waiting.
process.exit(await main(process.argv.slice(2)));
