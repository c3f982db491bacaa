/**
 * Shows failures and notices. Failures are logged with their details and shown with the buttons
 * that fix them; the notification is not awaited, so a flow never hangs on an unread toast.
 */
import type { Log } from '../log';
import { describeFailure, type FailureAction } from './failures';
import type { UiPrompts } from './prompts';

export interface NotifierActions {
  signIn(): unknown;
  showLogs(): unknown;
  openSettings(): unknown;
  deleteOldSessions(): unknown;
}

export class Notifier {
  private actions: NotifierActions | undefined;

  constructor(
    private readonly log: Log,
    private readonly prompts: UiPrompts,
  ) {}

  /** Wires the buttons once the commands exist (they are built after the notifier). */
  bind(actions: NotifierActions): void {
    this.actions = actions;
  }

  /**
   * Reports a failure of `what` (a verb phrase: "delete the dataset"). Returns the message shown,
   * or undefined when the user had cancelled (nothing is shown then).
   */
  failure(what: string, err: unknown, retry?: () => unknown): string | undefined {
    const report = describeFailure(what, err);
    if (report.cancelled) {
      this.log.info(report.logLine);
      return undefined;
    }
    this.log.error(report.logLine);
    const buttons = report.actions.filter((a) => a !== 'Retry' || retry !== undefined);
    void this.prompts.choose<FailureAction>(this.log.scrub(report.message), buttons, { level: 'error' }).then(
      (choice) => this.run(choice, retry),
      () => undefined,
    );
    return report.message;
  }

  info(message: string): void {
    this.log.info(message);
    void this.prompts.choose(message, [], { level: 'info' }).then(undefined, () => undefined);
  }

  warn(message: string): void {
    this.log.warn(message);
    void this.prompts.choose(message, [], { level: 'warning' }).then(undefined, () => undefined);
  }

  private run(choice: FailureAction | undefined, retry: (() => unknown) | undefined): void {
    const a = this.actions;
    if (!choice || !a) return;
    switch (choice) {
      case 'Sign In':
        void a.signIn();
        return;
      case 'Show Logs':
        void a.showLogs();
        return;
      case 'Open Settings':
        void a.openSettings();
        return;
      case 'Delete Old Sessions':
        void a.deleteOldSessions();
        return;
      case 'Retry':
        void retry?.();
        return;
    }
  }
}
