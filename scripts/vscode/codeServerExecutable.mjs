#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }):
// it takes VS Code's command line (--extensionTestsPath=..., --extensionDevelopmentPath=...,
// --extensions-dir=..., --user-data-dir=..., folder) and runs the tests in code-server + Chromium.
// The logic lives in runInCodeServer.ts; this file only loads it (through tsx, resolved from the
// repository's node_modules) and owns the process: signals and the exit code.
//
// Environment: TEAM_DATA_VSCODE_TIMEOUT_MS (default 600000), TEAM_DATA_VSCODE_LOG (tee file).
import { createRequire } from 'node:module';

// tsx's CommonJS hook, as mocha uses it (.mocharc.json): the package is CommonJS, and loading
// its .ts through the ESM hook instead trips over require(esm) cycles.
const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
const { runExtensionTestsInCodeServer } = require('./runInCodeServer.ts');

const abort = new AbortController();
// runTests forwards Ctrl+C as SIGINT; a CI runner may send SIGTERM. Either way: clean up first.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => abort.abort());

const timeout = Number(process.env.TEAM_DATA_VSCODE_TIMEOUT_MS);
const code = await runExtensionTestsInCodeServer({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  signal: abort.signal,
});
// Wait for stdout to drain: runTests reads our output through a pipe.
process.stdout.write('', () => process.exit(code));
