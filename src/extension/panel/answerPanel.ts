/**
 * One answer panel per session: hosts the webview bundle (src/webview) over the typed protocol
 * (src/shared/protocol.ts). The host owns the conversation; the webview only renders. Nothing is
 * posted before the webview's `ready`, and `init` then carries the whole state, so a webview that
 * reloads (or resyncs after a bad patch) always catches up.
 */
import * as vscode from 'vscode';
import type { TeamDataClient } from '../../api/index';
import type { Answer, HistoryRecord } from '../../shared/domain';
import { DEFAULT_PANEL_SETTINGS, PROTOCOL_VERSION, fileKeyOf, type DataScopeView, type HostToWebview, type PanelInit, type Turn, type WebviewToHost } from '../../shared/protocol';
import { isWebviewToHost } from '../../shared/protocolGuards';
import { readSettings } from '../config';
import type { Services } from '../services';
import { describeFailure } from '../ui/failures';
import { settleCancel, type CancelledJob } from './cancelOutcome';
import { chooseScope, describeScope, type JobScope } from './dataScope';
import type { AnswerFileCache, FileBlock } from './fileCache';
import { FileDelivery } from './fileDelivery';
import type { FollowUpLinks } from './followUpLinks';
import { handleAction } from './panelActions';
import { failedAnswer, runTurn, type TurnHandle } from './turnRunner';
import { themeKind, turnsFromHistory } from './panelTurns';

export const ANSWER_VIEW_TYPE = 'teamData.answer';
/** Past jobs loaded into a panel when it opens (the official web client loads 100 too). */
const HISTORY_LIMIT = 100;

export type { JobScope } from './dataScope';

export class AnswerPanel implements vscode.Disposable {
  private turns: Turn[] = [];
  private ready = false;
  private isDisposed = false;
  private title: string;
  private busyLabel: string | undefined;
  private scrollToJobId: string | undefined;
  private readonly running = new Map<string, TurnHandle>();
  /** The turns' TABLE/IMAGE files, downloaded by the host and posted to the webview. */
  private readonly delivery: FileDelivery;
  private scope: JobScope = {};
  /** Turns asked about other data than the session's (see `ask`), by turn id; a retry keeps it. */
  private readonly turnScopes = new Map<string, JobScope>();
  /** The data selector's names for `scope`; `scopeVersion` drops lookups a newer choice overtook. */
  private dataView: DataScopeView | undefined;
  private scopeVersion = 0;
  /** The user has been asked for data (or gave a scope), so a question without data is intended. */
  private scopeChosen = false;
  private turnCounter = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  /** Settles when the session's history is in `turns` (or failed to load). */
  readonly historyLoaded: Promise<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly sessionId: string,
    private readonly s: Services,
    readonly files: AnswerFileCache,
    html: string,
    title: string,
    private readonly scopes: { get(sessionId: string): JobScope | undefined; set(sessionId: string, scope: JobScope): void },
    /** Which turn each follow-up refines, kept across reloads (the service's history does not hold it). */
    private readonly followUps: FollowUpLinks,
  ) {
    this.title = title;
    // Follow-ups asked in the panel use the dataset and files of the session's last question.
    this.scope = scopes.get(sessionId) ?? {};
    panel.webview.html = html;
    this.delivery = new FileDelivery(files, panel.webview, (m) => this.post(m), () => this.isDisposed);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      vscode.window.onDidChangeActiveColorTheme((t) => this.post({ type: 'theme', theme: themeKind(t.kind) })),
      panel.onDidDispose(() => this.dispose()),
    );
    this.historyLoaded = this.loadHistory();
    this.scopeChosen = this.scope.datasetId !== undefined;
    void this.describeData();
  }

  get currentTitle(): string {
    return this.title;
  }

  /** The dataset and files the next question uses. */
  get dataScope(): JobScope {
    return this.scope;
  }

  /** Sets the data the next questions use, remembers it for the session and updates the selector. */
  setScope(scope: JobScope): void {
    this.scope = scope;
    this.scopeChosen = true;
    this.scopes.set(this.sessionId, scope);
    void this.describeData();
  }

  /** The data selector's button: asks which dataset and files; undefined when cancelled. */
  async chooseData(): Promise<JobScope | undefined> {
    const client = await this.s.connection.client();
    const scope = await chooseScope(this.s, client, `Ask “${this.title}” about which data?`, this.scope);
    if (scope) this.setScope(scope);
    return scope;
  }

  private async describeData(): Promise<void> {
    const version = ++this.scopeVersion;
    try {
      const view = await describeScope(await this.s.connection.client(), this.scope);
      if (version !== this.scopeVersion) return;
      this.dataView = view;
      this.post({ type: 'dataScope', data: view });
    } catch (err) {
      this.s.log.warn(describeFailure('look up the data of the session', err).logLine);
    }
  }

  /** The conversation as the host holds it (the tests read it, and Open in Editor its questions). */
  get conversation(): readonly Turn[] {
    return this.turns;
  }

  get isReady(): boolean {
    return this.ready;
  }

  reveal(scrollToJobId?: string): void {
    if (this.isDisposed) return;
    this.panel.reveal(undefined, false);
    if (scrollToJobId) {
      this.scrollToJobId = scrollToJobId;
      this.post({ type: 'scrollTo', jobId: scrollToJobId });
    }
  }

  setTitle(title: string): void {
    this.title = title;
    if (this.isDisposed) return;
    this.panel.title = title;
    this.post({ type: 'title', title });
  }

  setBusy(label: string | undefined): void {
    this.busyLabel = label;
    this.post(label === undefined ? { type: 'busy', busy: false } : { type: 'busy', busy: true, label });
  }

  /**
   * Asks `question` in this session and streams the answer in; resolves with the final answer.
   * `fromTurnId`: the turn whose follow-up chip asked it; the new turn names it, so a chip far up
   * the conversation visibly leads to the turn added (and scrolled to) at the end.
   */
  async ask(question: string, scope?: JobScope, opts: { fromTurnId?: string; questionScope?: JobScope } = {}): Promise<Answer> {
    if (scope) this.setScope(scope);
    await this.historyLoaded;
    const turn: Turn = { id: `t${++this.turnCounter}`, question, answer: { jobId: '', state: 'streaming', groups: [], triggers: [] } };
    const source = opts.fromTurnId === undefined ? undefined : this.turns.find((t) => t.id === opts.fromTurnId);
    if (source) turn.refines = { turnId: source.id, question: source.question };
    // This one question asks about less than the session's data ("Ask about targets.xlsx" after
    // adding it to a session that has sales.csv): its answer covers what it asked about.
    if (opts.questionScope) this.turnScopes.set(turn.id, opts.questionScope);
    this.turns.push(turn);
    this.post({ type: 'turn', turn });
    return this.start(turn);
  }

  /**
   * A question typed in the panel. A session that never had data (a new session whose picker was
   * dismissed) asks for it once, so the question is not answered "no data selected" by surprise;
   * dismissing again asks without data, as the selector then says.
   */
  private async askFromPanel(question: string, fromTurnId?: string): Promise<void> {
    if (!this.scopeChosen && this.scope.datasetId === undefined) {
      this.scopeChosen = true;
      await this.chooseData().catch((err: unknown) => this.s.notifier.failure('choose the data', err));
    }
    await this.ask(question, undefined, fromTurnId === undefined ? {} : { fromTurnId });
  }

  private async start(turn: Turn): Promise<Answer> {
    let client;
    try {
      client = await this.s.connection.client();
    } catch (err) {
      const report = describeFailure('ask the question', err);
      this.s.log.error(report.logLine);
      turn.answer = failedAnswer(report.message);
      this.post({ type: 'turn', turn });
      return turn.answer;
    }
    const req = { sessionId: this.sessionId, question: turn.question, languageType: readSettings().language, ...(this.turnScopes.get(turn.id) ?? this.scope) };
    const handle = runTurn(client, req, turn.answer, {
      patch: (patch) => this.post({ type: 'answerPatch', turnId: turn.id, patch }),
      resend: (answer) => {
        turn.answer = answer;
        this.post({ type: 'turn', turn });
      },
      title: () => void this.syncTitle(),
      progress: (answer) => {
        turn.answer = answer;
        this.fetchFiles(turn);
      },
      log: (level, message) => this.s.log.write(level, message),
    }, this.s.jobs, {
      // A cancel that came after the job finished on the service: one quick look at its history
      // before "Cancelled" is shown; a job recorded done shows its answer (cancelOutcome.ts).
      settleCancelled: async (cancelled) => {
        const outcome = await settleCancel(client.sessions, this.cancelledJob(turn, cancelled), [], AbortSignal.timeout(1000));
        return outcome.kind === 'done' ? outcome.answer : cancelled;
      },
    });
    this.running.set(turn.id, handle);
    const answer = await handle.done;
    this.running.delete(turn.id);
    turn.answer = answer;
    const source = turn.refines && this.turns.find((t) => t.id === turn.refines?.turnId);
    if (turn.refines && source) void this.followUps.remember(answer.jobId, { sourceJobId: source.answer.jobId, question: turn.refines.question }).then(undefined, () => undefined);
    if (answer.state === 'cancelled') void this.settleLater(client, turn, answer);
    else void this.s.sessions.refreshSession(this.sessionId);
    return answer;
  }

  private cancelledJob(turn: Turn, answer: Answer): CancelledJob {
    return { sessionId: this.sessionId, answer, question: turn.question, knownJobIds: new Set(this.turns.map((t) => t.answer.jobId).filter((id) => id !== '')) };
  }

  /**
   * A turn shown cancelled that history did not know yet: looks again for a while. A job the
   * service finished after all gets its answer (unless the turn was asked again meanwhile); one
   * it recorded cancelled gets its mark and Retry in the Sessions tree.
   */
  private async settleLater(client: TeamDataClient, turn: Turn, cancelled: Answer): Promise<void> {
    const outcome = await settleCancel(client.sessions, this.cancelledJob(turn, cancelled), [300, 1000, 2500, 6000]);
    if (outcome.kind === 'done') {
      if (turn.answer === cancelled) {
        turn.answer = outcome.answer;
        this.post({ type: 'turn', turn });
        this.fetchFiles(turn);
      }
      void this.s.sessions.refreshSession(this.sessionId);
      return;
    }
    void this.s.sessions.refreshAfterCancel(this.sessionId, outcome.kind === 'cancelled' ? outcome.jobId : cancelled.jobId);
  }

  /**
   * After TITLE_GENERATION: the service decides whether the session takes the generated title
   * (it keeps one the user gave), so the panel shows what the service holds, like the tree.
   */
  private async syncTitle(): Promise<void> {
    try {
      const session = await (await this.s.connection.client()).sessions.get(this.sessionId);
      const title = session.title.trim();
      if (title && title !== this.title) this.setTitle(title);
    } catch {
      // Keep the current title; the next refresh corrects it.
    }
    void this.s.sessions.refreshSession(this.sessionId);
  }

  cancel(turnId?: string): void {
    if (turnId) this.running.get(turnId)?.cancel();
    else for (const h of this.running.values()) h.cancel();
  }

  private async retry(turnId: string): Promise<Answer | undefined> {
    const turn = this.turns.find((t) => t.id === turnId);
    if (!turn || this.running.has(turnId)) return undefined;
    turn.answer = { jobId: '', state: 'streaming', groups: [], triggers: [] };
    this.post({ type: 'turn', turn });
    return this.start(turn);
  }

  /** Asks a past job's question again in its turn (Retry in the Sessions tree); undefined if not here. */
  async retryJob(jobId: string): Promise<Answer | undefined> {
    await this.historyLoaded;
    const turn = this.turns.find((t) => t.answer.jobId === jobId);
    return turn ? this.retry(turn.id) : undefined;
  }

  private async loadHistory(): Promise<void> {
    // Until the history is here, the panel must not look like an empty session.
    const starting = this.s.connection.info.mode === 'local' && this.s.supervisor.endpoint === undefined;
    const label = starting ? 'Starting the local service…' : 'Loading the conversation…';
    this.setBusy(label);
    try {
      const client = await this.s.connection.client();
      const records: HistoryRecord[] = [];
      for await (const r of client.sessions.iterateHistory(this.sessionId, { pageSize: HISTORY_LIMIT })) {
        records.push(r);
        if (records.length >= HISTORY_LIMIT) break;
      }
      this.turns = [...this.followUps.restore(turnsFromHistory(records)), ...this.turns];
      this.post({ type: 'conversation', title: this.title, sessionId: this.sessionId, turns: this.turns });
      for (const t of this.turns) this.fetchFiles(t);
    } catch (err) {
      const report = describeFailure('load the session history', err);
      this.s.log.warn(report.logLine);
      this.post({ type: 'notice', notice: { level: 'error', message: report.message } });
    } finally {
      if (this.busyLabel === label) this.setBusy(undefined);
    }
  }

  /** Starts downloads of the turn's TABLE/IMAGE files not requested yet; posts each when ready. */
  private fetchFiles(turn: Turn): void {
    this.delivery.fetch(turn);
  }

  /** The block of a turn by its file key (for the table/image actions). */
  fileBlock(turnId: string, fileKey: string): FileBlock | undefined {
    const turn = this.turns.find((t) => t.id === turnId);
    for (const g of turn?.answer.groups ?? []) {
      for (const b of g.blocks) if ((b.type === 'TABLE' || b.type === 'IMAGE') && fileKeyOf(b) === fileKey) return b;
    }
    return undefined;
  }

  private initState(): PanelInit {
    const init: PanelInit = {
      title: this.title,
      sessionId: this.sessionId,
      turns: this.turns,
      settings: DEFAULT_PANEL_SETTINGS,
      theme: themeKind(vscode.window.activeColorTheme.kind),
      busy: this.busyLabel !== undefined,
      resourceRoots: [this.panel.webview.asWebviewUri(vscode.Uri.file(this.files.root)).toString()],
    };
    if (this.busyLabel !== undefined) init.busyLabel = this.busyLabel;
    if (this.dataView) init.data = this.dataView;
    if (this.scrollToJobId) init.scrollToJobId = this.scrollToJobId;
    return init;
  }

  /** A message from the webview (validated here; the extension-host tests post through it too). */
  async receive(raw: unknown): Promise<void> {
    if (!isWebviewToHost(raw)) {
      this.s.log.warn('Answer panel: ignored a malformed message from the webview');
      return;
    }
    const m: WebviewToHost = raw;
    switch (m.type) {
      case 'ready':
        if (m.protocolVersion !== PROTOCOL_VERSION) this.s.log.warn(`Answer panel: webview protocol ${m.protocolVersion}, host ${PROTOCOL_VERSION}`);
        this.ready = true;
        this.post({ type: 'init', protocolVersion: PROTOCOL_VERSION, state: this.initState() });
        for (const t of this.turns) {
          // A re-init must resend file data the webview lost with its DOM.
          this.delivery.forget(t.id);
          this.fetchFiles(t);
        }
        return;
      case 'ask':
        void this.askFromPanel(m.question);
        return;
      case 'askFollowUp':
        void this.askFromPanel(m.question, m.fromTurnId);
        return;
      case 'chooseData':
        await this.chooseData().catch((err: unknown) => this.s.notifier.failure('choose the data', err));
        return;
      case 'cancel':
        this.cancel(m.turnId);
        return;
      case 'retry':
        void this.retry(m.turnId);
        return;
      case 'uiState':
        return;
      case 'webviewError':
        this.s.log.warn(`Answer panel (webview): ${m.message}`);
        return;
      default:
        await handleAction(this.s, this, m).catch((err: unknown) => this.s.notifier.failure('complete the action', err));
    }
  }

  /** Posts to the webview once it is ready; earlier state reaches it through `init`. */
  post(message: HostToWebview): void {
    if (!this.ready || this.isDisposed) return;
    void this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Closes the panel (the webview goes away; running jobs are cancelled). */
  close(): void {
    this.panel.dispose();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.ready = false;
    this.cancel();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }
}
