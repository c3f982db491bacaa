/**
 * Every subcommand takes --help and -h and prints its own usage (issue 24, point 19):
 * `team-data ask --help` failed with "Unknown option '--help'".
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseCli } from '../../src/cli/args';
import { COMMANDS, USAGE, usageOf } from '../../src/cli/usage';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.ts');
const TSX = require.resolve('tsx/cjs');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-r', TSX, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('team-data COMMAND --help', function () {
  this.timeout(60_000);

  it('every command reads --help and -h, wherever they stand, as a request for its usage', () => {
    for (const command of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        assert.deepEqual(parseCli([command, flag], {}), { command: 'help', topic: command }, `${command} ${flag}`);
      }
      assert.deepEqual(parseCli(['help', command], {}), { command: 'help', topic: command });
    }
    // After other arguments, even ones that would be a usage error on their own.
    assert.deepEqual(parseCli(['ask', 'sales.csv', '-h'], {}), { command: 'help', topic: 'ask' });
    assert.deepEqual(parseCli(['sessions', 'delete', '--help'], {}), { command: 'help', topic: 'sessions' });
    // After `--` a word is only a word (a file named -h).
    assert.throws(() => parseCli(['ask', '--', '-h'], {}), /ask needs --question/);
  });

  it('each command\'s usage is its own section of the full usage', () => {
    for (const command of COMMANDS) {
      const own = usageOf(command);
      assert.match(own, new RegExp(`^Usage:\\n  team-data ${command}\\b`), command);
      for (const other of COMMANDS.filter((c) => c !== command)) assert.doesNotMatch(own, new RegExp(`team-data ${other}\\b`), `${command} mentions ${other}`);
      assert.ok(USAGE.includes(own.replace(/^Usage:\n/, '')), `${command} is in the full usage`);
    }
  });

  it('`team-data ask --help` prints the usage of ask and exits 0; a usage mistake names the command\'s help', async () => {
    const help = await run(['ask', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stderr, '');
    assert.match(help.stdout, /^Usage:\n  team-data ask \[FILE \.\.\.\] --question TEXT/);
    assert.match(help.stdout, /--question, -q TEXT/);
    assert.doesNotMatch(help.stdout, /team-data serve/);
    const short = await run(['sessions', '-h']);
    assert.equal(short.code, 0, short.stderr);
    assert.match(short.stdout, /team-data sessions delete ID/);
    const wrong = await run(['ask', '--nope']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /Run "team-data ask --help" for usage\./);
  });
});
