/**
 * `extensionTestsPath` of the extension-host suite: VS Code calls `run()` inside the real
 * extension host. The suites are bundled into this file, so mocha's globals are installed before
 * they load; a JSON summary goes to $TEAM_DATA_SUITE_RESULT so the launcher can check what ran.
 */
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env['TEAM_DATA_SUITE_GREP'];
  if (grep) mocha.grep(grep);
  // Install describe/it on the global object, then load the suites (in this order: startup needs
  // a window where nothing activated the extension yet; later ones use what Analyze created).
  mocha.suite.emit('pre-require', globalThis, 'extension-host-suite', mocha);
  // The two-window test runs only its own suite, in each of its two windows.
  if (process.env['TEAM_DATA_SUITE_WINDOW']) require('./twoWindows.suite');
  else loadSuites();
  return runMocha(mocha);
}

function loadSuites(): void {
  require('./startup.suite');
  require('./activation.suite');
  require('./trees.suite');
  require('./glossary.suite');
  require('./analyze.suite');
  require('./turns.suite');
  require('./noData.suite');
  require('./addToSession.suite');
  require('./formats.suite');
  require('./inPlace.suite');
  require('./chat.suite');
  require('./restart.suite');
  require('./signIn.suite');
  require('./deletes.suite');
  // Needs the scripted-model test extension (loaded beside ours by extensionHost.test.ts).
  require('./localModel.suite');
  require('./modelPanel.suite');
  require('./modelEndpoint.suite');
  // Last: its first Explore of an answer table lets the service read the answer-file cache, which
  // restarts a service started without it.
  require('./explorer.suite');
  require('./explorerPersist.suite');
  require('./explorerExport.suite');
}

function runMocha(mocha: Mocha): Promise<void> {
  return new Promise((resolve, reject) => {
    const passed: string[] = [];
    const failed: Array<{ title: string; error: string }> = [];
    const runner = mocha.run((failures) => {
      const file = process.env['TEAM_DATA_SUITE_RESULT'];
      if (file) writeFileSync(file, JSON.stringify({ passed, failed }, null, 2));
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => passed.push(t.fullTitle()));
    runner.on('fail', (t, err: unknown) => failed.push({ title: t.fullTitle(), error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) }));
  });
}
