/**
 * Runs the embedded local service as a child process and keeps it alive.
 *
 * Why a child process: a heavy DuckDB query must never block the extension host, and a crash of
 * the native binding must never take the editor down (design.md). The child is the built CLI
 * (`dist/cli.js serve`) run by the editor's own Node (`process.execPath` with
 * `ELECTRON_RUN_AS_NODE=1`), so nothing has to be installed on the machine.
 *
 * The key travels in the environment, never argv (argv is visible to every local user in `ps`).
 * This module does not import vscode: it is driven and tested in plain Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Backoff } from './backoff';
import { classifyServeLine, looksLikeNativeLoadFailure, stderrLevel } from './serveOutput';
import { LocalServiceError, type LocalEndpoint, type SupervisorOptions, type SupervisorState } from './supervisorTypes';

/**
 * Runs the CLI (argv[1]) after arranging that the service stops when the extension host dies
 * without a chance to stop it (crash, kill -9): stdin is a pipe from the host, and its end
 * triggers the service's own graceful SIGTERM handling. Without this the service would outlive
 * the editor as an orphan.
 */
const PARENT_WATCH =
  "process.stdin.on('end',()=>{process.emit('SIGTERM');setTimeout(()=>process.exit(0),10000).unref();});" +
  "process.stdin.on('error',()=>{});process.stdin.resume();require(process.argv[1]);";

export { LocalServiceError, type LocalEndpoint, type SupervisorLogLevel, type SupervisorOptions, type SupervisorState } from './supervisorTypes';

type StateListener = (state: SupervisorState, error?: LocalServiceError) => void;

interface Run {
  child: ChildProcess;
  key: string;
  endpoint?: LocalEndpoint;
  startedAt: number;
  earlyStderr: string;
  exited: Promise<void>;
}

/** Supervises one child process at a time; all public methods are safe to call concurrently. */
export class LocalServiceSupervisor {
  private stateValue: SupervisorState = 'stopped';
  private run: Run | undefined;
  private starting: Promise<LocalEndpoint> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private failures = 0;
  private lastError: LocalServiceError | undefined;
  private disposed = false;
  private readonly listeners = new Set<StateListener>();

  /** Read roots passed to the child last started. */
  private spawnedRoots: string[] = [];

  constructor(private readonly opts: SupervisorOptions) {
    this.backoff = new Backoff({ baseMs: 1000, maxMs: 30_000, ...opts.backoff });
  }

  get state(): SupervisorState {
    return this.stateValue;
  }

  /** The running endpoint, if any (no start is triggered). */
  get endpoint(): LocalEndpoint | undefined {
    return this.stateValue === 'running' ? this.run?.endpoint : undefined;
  }

  /** The OS process id of the current child, for diagnostics and tests. */
  get pid(): number | undefined {
    return this.run?.child.pid;
  }

  onDidChangeState(listener: StateListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * The endpoint of a healthy service, starting it on first use. A failed or given-up service is
   * tried again, since an explicit use is the user asking for another attempt.
   */
  ensureStarted(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new LocalServiceError('stopped', 'the local service was shut down'));
    // A start in progress first: during a restart the old endpoint is about to go away.
    if (this.starting) return this.starting;
    const current = this.endpoint;
    if (current) return Promise.resolve(current);
    if (this.stateValue === 'failed' || this.stateValue === 'restarting') {
      this.clearRestartTimer();
      this.failures = 0;
      this.backoff.reset();
    }
    const p = this.startOnce().finally(() => {
      if (this.starting === p) this.starting = undefined;
    });
    this.starting = p;
    return p;
  }

  /** Whether the read roots differ from the ones the running service was started with. */
  readRootsChanged(): boolean {
    const now = [...(this.opts.readRoots?.() ?? [])];
    return now.length !== this.spawnedRoots.length || now.some((r, i) => r !== this.spawnedRoots[i]);
  }

  /** The folders the current service may read files in place from (empty before a start). */
  get readRoots(): readonly string[] {
    return this.spawnedRoots;
  }

  /**
   * Stops the child and starts a fresh one. Callers that need the service meanwhile (a tree
   * refreshing) join this restart: a start of their own while the old child still holds the
   * database would fail on its lock.
   */
  restart(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new LocalServiceError('stopped', 'the local service was shut down'));
    this.clearRestartTimer();
    // From now on nobody gets the old endpoint (see `endpoint`): it is about to stop answering.
    if (this.stateValue === 'running') this.setState('restarting');
    const previous = this.starting;
    const p = (async () => {
      await previous?.catch(() => undefined);
      await this.stopChild();
      this.failures = 0;
      this.backoff.reset();
      return this.startOnce();
    })().finally(() => {
      if (this.starting === p) this.starting = undefined;
    });
    this.starting = p;
    return p;
  }

  /** Stops the child (gracefully, then SIGKILL after a grace period) and every timer. */
  async stop(): Promise<void> {
    this.disposed = true;
    this.clearRestartTimer();
    await this.stopChild();
    this.setState('stopped');
  }

  private async startOnce(): Promise<LocalEndpoint> {
    // A stop() that came while a restart waited for the old child: start nothing after shutdown.
    if (this.disposed) throw new LocalServiceError('stopped', 'the local service was shut down');
    this.setState(this.stateValue === 'running' || this.stateValue === 'restarting' ? 'restarting' : 'starting');
    try {
      const endpoint = await this.spawnAndWait();
      this.lastError = undefined;
      this.setState('running');
      this.scheduleHealthChecks();
      return endpoint;
    } catch (err) {
      const error = err instanceof LocalServiceError ? err : new LocalServiceError('start', describe(err));
      this.lastError = error;
      await this.stopChild();
      this.failures++;
      if (this.disposed) throw new LocalServiceError('stopped', 'the local service was shut down');
      this.opts.log('error', `Local service failed to start: ${error.message}`);
      this.setState('failed', error);
      throw error;
    }
  }

  private async spawnAndWait(): Promise<LocalEndpoint> {
    const { cliPath, dataDir } = this.opts;
    if (!existsSync(cliPath)) {
      throw new LocalServiceError('missing', `the local service is not built (${cliPath} is missing); run "npm run build"`);
    }
    await mkdir(dataDir, { recursive: true });
    const key = `local-${randomBytes(32).toString('base64url')}`;
    const env: NodeJS.ProcessEnv = { ...(this.opts.env ?? process.env), ELECTRON_RUN_AS_NODE: '1', TEAM_DATA_LOCAL_API_KEY: key };
    // The hosted key has no business in the child's environment.
    delete env['TEAM_DATA_API_KEY'];
    const roots = [...(this.opts.readRoots?.() ?? [])];
    this.spawnedRoots = roots;
    const rootArgs = roots.flatMap((r) => ['--read-root', r]);
    const child = spawn(this.opts.nodePath ?? process.execPath, ['-e', PARENT_WATCH, cliPath, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...rootArgs], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    // The pipe is only a lifeline: nothing is written, and its end means the editor is gone.
    child.stdin?.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const run: Run = { child, key, startedAt: Date.now(), earlyStderr: '', exited };
    this.run = run;
    this.opts.log('info', `Starting the local service (pid ${child.pid ?? '?'}, data in ${dataDir})`);

    const baseUrl = await new Promise<string>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => fail(new LocalServiceError('start', 'the local service did not report its address in time')), this.opts.startTimeoutMs ?? 60_000);
      const fail = (e: LocalServiceError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(e);
      };
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const parsed = classifyServeLine(line);
        if (parsed.kind === 'baseUrl' && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(parsed.url);
        } else if (parsed.kind === 'text' && parsed.text.trim() !== '') {
          this.opts.log('info', this.scrub(parsed.text, key));
        }
      });
      createInterface({ input: child.stderr! }).on('line', (line) => {
        const clean = this.scrub(line, key);
        if (!run.endpoint && run.earlyStderr.length < 16_384) run.earlyStderr += `${clean}\n`;
        const { level, text } = stderrLevel(clean);
        this.opts.log(level, text);
      });
      child.once('error', (e) => fail(new LocalServiceError('start', `could not start the local service: ${describe(e)}`)));
      child.once('exit', (code, signal) => {
        // stdout may still hold the address line; give readline a tick before judging.
        setImmediate(() => fail(this.exitError(run, code, signal)));
      });
    });

    const addressMs = Date.now() - run.startedAt;
    const endpoint: LocalEndpoint = { baseUrl, apiKey: key };
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.opts.startTimeoutMs ?? 60_000);
    try {
      await Promise.race([
        this.opts.healthCheck(endpoint, ac.signal),
        exited.then(() => {
          throw this.exitError(run, child.exitCode, child.signalCode);
        }),
      ]);
    } catch (err) {
      throw err instanceof LocalServiceError ? err : new LocalServiceError('start', `the local service does not answer: ${describe(err)}`);
    } finally {
      clearTimeout(timer);
      ac.abort();
    }
    run.endpoint = endpoint;
    child.once('exit', (code, signal) => this.onUnexpectedExit(run, code, signal));
    const readyMs = Date.now() - run.startedAt;
    this.opts.log('info', `Local service ready at ${baseUrl} in ${readyMs} ms (address after ${addressMs} ms, first answer ${readyMs - addressMs} ms later)`);
    return endpoint;
  }

  private exitError(run: Run, code: number | null, signal: NodeJS.Signals | null): LocalServiceError {
    if (looksLikeNativeLoadFailure(run.earlyStderr)) {
      return new LocalServiceError(
        'native',
        'the local service cannot run on this platform: its DuckDB native part failed to load. A hosted service still works (set teamData.baseUrl and sign in).',
      );
    }
    const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
    return new LocalServiceError('start', `the local service ${how} while starting (see the log for details)`);
  }

  private onUnexpectedExit(run: Run, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.run !== run || this.disposed) return;
    this.run = undefined;
    this.clearHealthTimer();
    const ranMs = Date.now() - run.startedAt;
    if (ranMs >= (this.opts.stableAfterMs ?? 60_000)) {
      this.failures = 0;
      this.backoff.reset();
    }
    this.failures++;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
    this.scheduleRestart(`Local service ${how}`);
  }

  /** Another start after a backoff delay, until too many consecutive failures. */
  private scheduleRestart(what: string): void {
    if (this.failures > (this.opts.maxConsecutiveFailures ?? 5)) {
      this.lastError = new LocalServiceError('start', `${what.replace(/^Local service/, 'the local service')} and keeps failing; it will be tried again on next use`);
      this.opts.log('error', `${what}; giving up after ${this.failures - 1} restarts`);
      this.setState('failed', this.lastError);
      return;
    }
    const delay = this.backoff.next();
    this.opts.log('warn', `${what}; restarting in ${Math.round(delay / 1000)} s`);
    this.setState('restarting');
    this.clearRestartTimer();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.disposed || this.starting) return;
      const p = this.startOnce().finally(() => {
        if (this.starting === p) this.starting = undefined;
      });
      this.starting = p;
      p.catch((err: unknown) => {
        // A native-load failure cannot heal by itself; anything else gets another try.
        if (this.disposed || (err instanceof LocalServiceError && (err.kind === 'native' || err.kind === 'missing'))) return;
        this.scheduleRestart('Local service restart failed');
      });
    }, delay);
  }

  private scheduleHealthChecks(): void {
    this.clearHealthTimer();
    const every = this.opts.healthIntervalMs ?? 60_000;
    if (every <= 0) return;
    let misses = 0;
    const tick = async (): Promise<void> => {
      const run = this.run;
      const endpoint = run?.endpoint;
      if (!run || !endpoint || this.stateValue !== 'running') return;
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), Math.min(every, 15_000));
      try {
        await this.opts.healthCheck(endpoint, ac.signal);
        misses = 0;
      } catch (err) {
        misses++;
        this.opts.log('warn', `Local service health check failed (${misses}): ${describe(err)}`);
        // Two misses in a row: the process is alive but hung; killing it triggers a restart.
        if (misses >= 2 && this.run === run) run.child.kill('SIGKILL');
      } finally {
        clearTimeout(timer);
      }
      if (this.run === run && this.stateValue === 'running') this.healthTimer = setTimeout(() => void tick(), every);
    };
    this.healthTimer = setTimeout(() => void tick(), every);
    this.healthTimer.unref?.();
  }

  private async stopChild(): Promise<void> {
    this.clearHealthTimer();
    const run = this.run;
    this.run = undefined;
    if (!run || run.child.exitCode !== null || run.child.signalCode !== null) return;
    // Closing the lifeline makes the child run its own graceful shutdown (see PARENT_WATCH); a
    // SIGTERM on top would race with it and could cut the shutdown short.
    if (run.child.stdin && !run.child.stdin.destroyed) run.child.stdin.end();
    else run.child.kill('SIGTERM');
    const killTimer = setTimeout(() => run.child.kill('SIGKILL'), 5000);
    await run.exited;
    clearTimeout(killTimer);
    this.opts.log('info', 'Local service stopped');
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private clearHealthTimer(): void {
    if (this.healthTimer) clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
  }

  private setState(state: SupervisorState, error?: LocalServiceError): void {
    if (this.stateValue === state && !error) return;
    this.stateValue = state;
    for (const l of [...this.listeners]) {
      try {
        l(state, error);
      } catch {
        // A listener's bug must not stop supervision.
      }
    }
  }

  private scrub(text: string, key: string): string {
    return text.split(key).join('***');
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
