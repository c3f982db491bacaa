/**
 * A window's hold on the embedded local service. The service is one per data folder, shared by
 * every VS Code window, `team-data ask` and `team-data mcp` (cli/serviceAttach.ts): the first
 * client starts it detached, the others attach through its discovery file, and each holds a lease.
 * Closing the window that started it does not stop it; it ends a few minutes after its last lease.
 *
 * Why a separate process: a heavy DuckDB query must never block the extension host, and a crash of
 * the native binding must never take the editor down (design.md). It is the built CLI
 * (`dist/cli.js serve --shared`) run by the editor's own Node (`ELECTRON_RUN_AS_NODE=1`).
 * The key is read from the owner-only discovery file, never from argv or the log.
 * This module does not import vscode: it is driven and tested in plain Node.
 */
import { attachOrStart, ServiceStartError, type Attached } from '../../cli/serviceAttach';
import { localCall } from '../../cli/serviceProbe';
import { processAlive } from '../../server/daemon/discovery';
import { Backoff } from './backoff';
import { looksLikeNativeLoadFailure } from './serveOutput';
import { LocalServiceError, type LocalEndpoint, type SupervisorOptions, type SupervisorState } from './supervisorTypes';

export { LocalServiceError, type LocalEndpoint, type SupervisorLogLevel, type SupervisorOptions, type SupervisorState } from './supervisorTypes';

type StateListener = (state: SupervisorState, error?: LocalServiceError) => void;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** How long a restart waits for the service's running jobs (an explicit restart shows progress). */
const RESTART_WAIT_MS = 15 * 60_000;

/** All public methods are safe to call concurrently. */
export class LocalServiceSupervisor {
  private stateValue: SupervisorState = 'stopped';
  private attached: Attached | undefined;
  private starting: Promise<LocalEndpoint> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private failures = 0;
  private disposed = false;
  private readonly listeners = new Set<StateListener>();
  /** The roots registered with the current lease. */
  private registeredRoots: string[] = [];
  private prepared: Promise<void> | undefined;
  /** Folders reported missing by the lease while the attach was still going on. */
  private pendingMissing: string[] | undefined;

  constructor(private readonly opts: SupervisorOptions) {
    this.backoff = new Backoff({ baseMs: 1000, maxMs: 30_000, ...opts.backoff });
  }

  get state(): SupervisorState {
    return this.stateValue;
  }

  /** The running endpoint, if any (no start is triggered). */
  get endpoint(): LocalEndpoint | undefined {
    const d = this.attached?.discovery;
    return this.stateValue === 'running' && d ? { baseUrl: d.baseUrl, apiKey: d.apiKey } : undefined;
  }

  /** This window's lease, sent with its requests so in-place reads are checked against its folders. */
  get leaseId(): string | undefined {
    return this.stateValue === 'running' ? this.attached?.lease.leaseId : undefined;
  }

  /** The service's process id, for diagnostics and tests. */
  get pid(): number | undefined {
    return this.attached?.discovery.pid;
  }

  /** The data folder in use (the setting, else the folder shared with the CLI and MCP). */
  get dataDir(): string {
    return this.opts.dataDir();
  }

  onDidChangeState(listener: StateListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The endpoint of a live service, attaching (or starting one) on first use or after a failure. */
  ensureStarted(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new LocalServiceError('stopped', 'the local service was shut down'));
    if (this.starting) return this.starting;
    const current = this.endpoint;
    if (current) return Promise.resolve(current);
    if (this.stateValue === 'failed' || this.stateValue === 'restarting') {
      this.clearRetry();
      this.failures = 0;
      this.backoff.reset();
    }
    return this.track(this.attachOnce());
  }

  /** Whether this window's folders differ from the ones registered with its lease. */
  readRootsChanged(): boolean {
    const now = [...(this.opts.readRoots?.() ?? [])];
    return now.length !== this.registeredRoots.length || now.some((r, i) => r !== this.registeredRoots[i]);
  }

  /** The folders this window registered for reading in place (empty before an attach). */
  get readRoots(): readonly string[] {
    return this.registeredRoots;
  }

  /** Tells the service this window's folders changed; it restarts once idle if it cannot read them. */
  async updateReadRoots(): Promise<void> {
    const lease = this.attached?.lease;
    if (!lease || !this.readRootsChanged()) return;
    this.registeredRoots = [...(this.opts.readRoots?.() ?? [])];
    await lease.updateRoots();
  }

  /**
   * Tells the service the model this window chose now (`opts.model`; none clears it). Without a
   * service nothing is sent: the next attach registers the model of that moment. During an attach
   * it waits for it (the lease may have been taken with the model of before).
   */
  async updateModel(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const lease = this.attached?.lease;
    if (!lease) return;
    await lease.updateModel();
  }

  /**
   * Asks the service to restart as soon as no job runs (its other clients attach to the new one),
   * then attaches to the new one. A use meanwhile joins this restart.
   */
  restart(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new LocalServiceError('stopped', 'the local service was shut down'));
    this.clearRetry();
    const previous = this.starting;
    const old = this.attached;
    if (this.stateValue === 'running') this.setState('restarting');
    return this.track((async () => {
      await previous?.catch(() => undefined);
      if (old) await this.leaveAfterExit(old, 'asked by the user');
      this.failures = 0;
      this.backoff.reset();
      return this.attachOnce();
    })());
  }

  /** Leaves the current service (keeping it running for others) and attaches to the data folder's now. */
  reattach(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new LocalServiceError('stopped', 'the local service was shut down'));
    this.clearRetry();
    const previous = this.starting;
    return this.track((async () => {
      await previous?.catch(() => undefined);
      const old = this.attached;
      this.attached = undefined;
      await old?.lease.release();
      return this.attachOnce();
    })());
  }

  /** Gives this window's lease back; the service stops a few minutes after its last client. */
  async stop(): Promise<void> {
    this.disposed = true;
    this.clearRetry();
    const a = this.attached;
    this.attached = undefined;
    await a?.lease.release();
    this.setState('stopped');
  }

  private track(p: Promise<LocalEndpoint>): Promise<LocalEndpoint> {
    const tracked = p.finally(() => {
      if (this.starting === tracked) this.starting = undefined;
    });
    this.starting = tracked;
    return tracked;
  }

  /**
   * Requests a restart of the service `a` is attached to and waits until its process is gone
   * (it finishes its jobs first; the lease is kept meanwhile, so nothing else stops it early).
   */
  private async leaveAfterExit(a: Attached, reason: string): Promise<void> {
    await localCall(a.discovery, 'POST', '/restart', { reason }).catch(() => undefined);
    this.opts.log('info', `Waiting for the local service (pid ${a.discovery.pid}) to finish its jobs and restart`);
    const until = Date.now() + RESTART_WAIT_MS;
    while (processAlive(a.discovery.pid) && !this.disposed) {
      if (Date.now() > until) {
        if (this.attached === a) this.setState('running');
        throw new LocalServiceError('start', `the local service is still busy after ${Math.round(RESTART_WAIT_MS / 60_000)} minutes; it restarts once its jobs end`);
      }
      await sleep(100);
    }
    a.lease.abandon();
    if (this.attached === a) this.attached = undefined;
  }

  private async attachOnce(): Promise<LocalEndpoint> {
    if (this.disposed) throw new LocalServiceError('stopped', 'the local service was shut down');
    this.setState(this.stateValue === 'running' || this.stateValue === 'restarting' ? 'restarting' : 'starting');
    const roots = [...(this.opts.readRoots?.() ?? [])];
    let attached: Attached;
    try {
      this.prepared ??= (this.opts.prepare?.() ?? Promise.resolve()).catch((e: unknown) => this.opts.log('warn', `preparing the data folder failed: ${String(e)}`));
      await this.prepared;
      attached = await attachOrStart({
        dataDir: this.opts.dataDir(),
        cliPath: this.opts.cliPath,
        ...(this.opts.nodePath ? { nodePath: this.opts.nodePath } : {}),
        ...(this.opts.env ? { env: this.opts.env } : {}),
        ...(this.opts.startTimeoutMs ? { startTimeoutMs: this.opts.startTimeoutMs } : {}),
        ...(this.opts.readHardLinks?.() === true ? { readHardLinks: true } : {}),
        version: this.opts.version,
        client: 'vscode',
        // Live: a later updateReadRoots sends the folders of that moment.
        roots: () => [...(this.opts.readRoots?.() ?? [])],
        // Live too: a lease taken again after the service forgot it carries the model of then.
        ...(this.opts.model ? { model: this.opts.model } : {}),
        log: (level, message) => this.opts.log(level, message),
        onNote: (m) => {
          this.opts.log('warn', m);
          this.opts.onNote?.(m);
        },
        onLost: () => this.lost(attached),
        // Called while the attach is still going on (attached not set yet): kept for after it.
        onMissingRoots: (missing) => this.rootsNeedRestart(this.attached, missing),
      });
      if (this.disposed) {
        await attached.lease.release();
        throw new LocalServiceError('stopped', 'the local service was shut down');
      }
      // A real request through the real client: proves the key, the codec and the state.
      await this.opts.healthCheck({ baseUrl: attached.discovery.baseUrl, apiKey: attached.discovery.apiKey }, AbortSignal.timeout(15_000))
        .catch(async (e: unknown) => {
          await attached.lease.release();
          throw e;
        });
    } catch (err) {
      const error = this.asError(err);
      if (error.kind === 'stopped') throw error;
      this.failures++;
      this.opts.log('error', `Local service failed to start: ${error.message}`);
      this.setState('failed', error);
      throw error;
    }
    this.attached = attached;
    this.registeredRoots = roots;
    this.watchProcess(attached);
    // Folders the service could not read yet were reported while attaching: ask for the restart now.
    const pending = this.pendingMissing;
    this.pendingMissing = undefined;
    if (pending) setTimeout(() => this.rootsNeedRestart(attached, pending), 0);
    this.failures = 0;
    this.backoff.reset();
    this.setState('running');
    const how = attached.started ? 'started' : 'attached to the running one';
    this.opts.log('info', `Local service ready at ${attached.discovery.baseUrl} (${how} in ${attached.ms} ms, pid ${attached.discovery.pid}, data in ${this.opts.dataDir()})`);
    return { baseUrl: attached.discovery.baseUrl, apiKey: attached.discovery.apiKey };
  }

  private asError(err: unknown): LocalServiceError {
    if (err instanceof LocalServiceError) return err;
    if (err instanceof ServiceStartError) {
      if (looksLikeNativeLoadFailure(err.logTail)) {
        return new LocalServiceError('native', 'the local service cannot run on this platform: its DuckDB native part failed to load. A hosted service still works (set teamData.baseUrl and sign in).');
      }
      return new LocalServiceError(err.kind === 'missing' ? 'missing' : 'start', err.message);
    }
    return new LocalServiceError('start', err instanceof Error ? err.message : String(err));
  }

  /**
   * Notices within seconds that the service's process ended (a restart, `team-data service stop`,
   * a crash), sooner than two missed renewals would, so the window attaches to the next one.
   */
  private watchProcess(a: Attached): void {
    const timer = setInterval(() => {
      if (this.attached !== a || this.disposed) return clearInterval(timer);
      if (processAlive(a.discovery.pid)) return;
      clearInterval(timer);
      a.lease.abandon();
      this.lost(a);
    }, 1000);
    timer.unref();
  }

  /** The service stopped answering: attach again (which starts a new one if it is gone). */
  private lost(a: Attached): void {
    if (this.disposed || this.attached !== a) return;
    this.attached = undefined;
    this.scheduleRetry('The local service stopped answering');
  }

  /**
   * The service cannot read some of this window's folders until it restarts: ask it to, once its
   * jobs end, and keep using it meanwhile; when its process is gone, attach to the successor.
   */
  private rootsNeedRestart(a: Attached | undefined, missing: string[]): void {
    if (this.disposed) return;
    if (!a || this.attached !== a) {
      this.pendingMissing = missing;
      return;
    }
    this.opts.log('info', `The local service restarts when no job runs, to read ${missing.join(', ')} in place`);
    void localCall(a.discovery, 'POST', '/restart', { reason: `a window needs ${missing.length} more folder(s)` }).catch(() => undefined);
    void (async () => {
      while (processAlive(a.discovery.pid) && this.attached === a && !this.disposed) await sleep(100);
      if (this.attached !== a || this.disposed) return;
      a.lease.abandon();
      this.attached = undefined;
      this.scheduleRetry('The local service restarted to read new folders');
    })();
  }

  private scheduleRetry(what: string): void {
    if (this.failures > (this.opts.maxConsecutiveFailures ?? 5)) {
      const error = new LocalServiceError('start', `${what.replace(/^The local service/, 'the local service')} and keeps failing; it will be tried again on next use`);
      this.setState('failed', error);
      return;
    }
    const delay = this.failures === 0 ? 0 : this.backoff.next();
    this.opts.log('warn', `${what}; attaching again${delay > 0 ? ` in ${Math.round(delay / 1000)} s` : ''}`);
    this.setState('restarting');
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.disposed || this.starting) return;
      this.track(this.attachOnce()).catch((err: unknown) => {
        if (this.disposed || (err instanceof LocalServiceError && (err.kind === 'native' || err.kind === 'missing'))) return;
        this.scheduleRetry('Attaching to the local service failed');
      });
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
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
}
