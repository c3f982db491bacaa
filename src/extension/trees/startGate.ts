/**
 * What a tree's root shows before the service has answered. The embedded local service needs a
 * moment to start (longer right after a window reload, when everything starts at once), and an
 * empty root makes VS Code show the view's welcome text ("No datasets yet"), which would be false.
 * So the root shows "Starting the local service…" until the start settles, then loads for real;
 * a start that fails shows its reason with a click that retries. Free of `vscode`, so the rules
 * are tested in plain Node.
 */
import { nodeId, type MessageNode } from './nodes';

/** The service a tree waits for. */
export interface ServiceStarter {
  /** True when nothing needs starting (a hosted service, or the local one already answers). */
  ready(): boolean;
  /** Starts the service, or joins the start in progress; rejects with the reason it cannot run. */
  start(): Promise<unknown>;
}

export type GateState =
  | { kind: 'open' }
  | { kind: 'starting'; node: MessageNode }
  | { kind: 'failed'; error: unknown };

/** The notice a root shows while the service starts (clicking it shows the log of the start). */
export function startingNode(tree: string): MessageNode {
  return {
    kind: 'message',
    id: nodeId.message(undefined, tree),
    text: 'Starting the local service…',
    tooltip: 'The embedded local service is starting; the list appears as soon as it answers. Click to see its log.',
    severity: 'progress',
    command: { id: 'teamData.showLogs', title: 'Show Logs' },
  };
}

export class StartGate {
  private failure: { error: unknown } | undefined;
  private waiting = false;

  /** `settled` asks the tree to render its root again (the start finished, either way). */
  constructor(
    private readonly tree: string,
    private readonly starter: ServiceStarter,
    private readonly settled: () => void,
  ) {}

  /** Whether the root may load now; starts the service when it has to. */
  check(): GateState {
    if (this.failure) {
      // Started meanwhile by something else (a question in the panel): the failure is old news.
      if (!this.starter.ready()) return { kind: 'failed', error: this.failure.error };
      this.failure = undefined;
    }
    if (this.starter.ready()) return { kind: 'open' };
    if (!this.waiting) {
      this.waiting = true;
      this.starter.start().then(
        () => {
          this.waiting = false;
          this.settled();
        },
        (error: unknown) => {
          this.waiting = false;
          this.failure = { error };
          this.settled();
        },
      );
    }
    return { kind: 'starting', node: startingNode(this.tree) };
  }

  /** Forgets a failed start, so the next check tries again (Retry, Refresh, a settings change). */
  reset(): void {
    this.failure = undefined;
  }

  /** The service started by another path: a root showing a failure renders again. */
  serviceStarted(): void {
    if (this.failure) this.settled();
  }
}
