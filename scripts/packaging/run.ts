/**
 * Child processes for the packaging and start scripts: output collected (shown only when
 * something fails, so progress stays readable), and stopped when the caller aborts (Ctrl+C).
 */
import { spawn } from 'node:child_process';

/** Options of {@link runQuiet}. */
export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal | undefined;
  /** Windows needs a shell for `npm.cmd`. */
  shell?: boolean;
  /** Also pass each output chunk on (e.g. to show a long install's progress). */
  onOutput?: (chunk: string) => void;
}

/** What a finished child said. */
export interface RunResult {
  code: number;
  /** stdout and stderr interleaved, capped to the last 1 MB. */
  output: string;
  stdout: string;
}

const CAP = 1024 * 1024;

/**
 * Runs a command to completion. Never rejects for a non-zero exit (the caller decides what a
 * failure means); rejects when it cannot start or when `signal` aborts (the child gets SIGTERM).
 */
export function runQuiet(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], shell: options.shell ?? false, windowsHide: true });
    let output = '';
    let stdout = '';
    const take = (isStdout: boolean) => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-CAP);
      if (isStdout) stdout = (stdout + text).slice(-CAP);
      options.onOutput?.(text);
    };
    child.stdout.on('data', take(true));
    child.stderr.on('data', take(false));
    const onAbort = () => child.kill('SIGTERM');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(new Error(`could not run ${command}: ${err.message}`));
    });
    child.once('close', (code, sig) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) reject(new Error('aborted'));
      else resolve({ code: code ?? (sig ? 128 : 1), output, stdout });
    });
  });
}
