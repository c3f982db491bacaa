/**
 * The Sessions tree: sessions (title; language and job mode in the description) → past jobs from
 * the session's history, labelled with the question. Clicking a job opens its answer.
 */
import * as vscode from 'vscode';
import type { HistoryRecord, Session } from '../../shared/domain';
import { ConnectionError } from '../connection/connection';
import { describeFailure } from '../ui/failures';
import type { TreeDeps } from './datasetsTree';
import { PagedList } from './pagedList';
import { StartGate } from './startGate';
import { failureNode, listFor, noMatchNotice, pagedNodes } from './pagedNodes';
import { nodeId, questionOf, type JobNode, type MessageNode, type MoreNode, type SessionNode, type SessionsTreeNode } from './nodes';
import { jobItem, messageItem, moreItem, sessionItem } from './treeItems';

export const SESSIONS_VIEW = 'teamData.sessions';
const TREE = 'sessions';

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private root: PagedList<Session> | undefined;
  private readonly history = new Map<string, PagedList<HistoryRecord>>();
  private readonly sessionNodes = new Map<string, SessionNode>();
  private readonly jobNodes = new Map<string, JobNode>();
  private keywordValue = '';
  private view: vscode.TreeView<SessionsTreeNode> | undefined;
  /** Page sizes; the extension-host tests lower them to exercise "Load more…". */
  pageSize = { sessions: 25, history: 20 };
  /** Keeps the root from looking empty while the service starts. */
  readonly gate: StartGate;

  constructor(private readonly deps: TreeDeps) {
    this.gate = new StartGate(TREE, deps.starter, () => this.changed.fire(undefined));
  }

  attach(view: vscode.TreeView<SessionsTreeNode>): void {
    this.view = view;
  }

  get keyword(): string {
    return this.keywordValue;
  }

  setKeyword(keyword: string): void {
    this.keywordValue = keyword.trim();
    void vscode.commands.executeCommand('setContext', 'teamData.sessionsFiltered', this.keywordValue !== '');
    if (this.view) this.view.description = this.keywordValue ? `filter: ${this.keywordValue}` : undefined;
    this.refresh();
  }

  refresh(): void {
    this.gate.reset();
    this.root = undefined;
    this.history.clear();
    this.sessionNodes.clear();
    this.jobNodes.clear();
    this.changed.fire(undefined);
  }

  /** Reloads one session's history (after a job) and its title. */
  async refreshSession(sessionId: string): Promise<void> {
    const node = this.sessionNodes.get(sessionId);
    if (!node) {
      this.refresh();
      return;
    }
    try {
      const client = await this.deps.client();
      node.session = await client.sessions.get(sessionId);
    } catch {
      // Keep the old title; the history reload below still reflects the new job.
    }
    await this.history.get(sessionId)?.reload().catch(() => undefined);
    this.changed.fire(node);
  }

  /**
   * After a cancelled turn. The service records the job as cancelled once it has seen the
   * connection close and stopped the job, a moment after the panel already shows "Cancelled"; a
   * single reload right away finds no row (or the job still running), so the row never got its
   * mark and Retry. Reloads a few more times, stopping once the row says cancelled.
   */
  async refreshAfterCancel(sessionId: string, jobId: string, delaysMs: readonly number[] = [300, 1000, 2500, 6000]): Promise<void> {
    const recorded = (): boolean => jobId !== '' && (this.history.get(sessionId)?.items ?? []).some((r) => r.jobId === jobId && r.answer.state === 'cancelled');
    await this.refreshSession(sessionId);
    for (const ms of delaysMs) {
      if (recorded()) return;
      await new Promise((resolve) => setTimeout(resolve, ms));
      await this.refreshSession(sessionId);
    }
  }

  forgetSession(sessionId: string): void {
    this.root?.remove(sessionId);
    this.history.delete(sessionId);
    this.sessionNodes.delete(sessionId);
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionsTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'session':
        return sessionItem(node);
      case 'job':
        return jobItem(node);
      case 'more':
        return moreItem(node);
      case 'message':
        return messageItem(node);
    }
  }

  getParent(node: SessionsTreeNode): SessionsTreeNode | undefined {
    if (node.kind === 'session' || node.parentId === undefined) return undefined;
    return this.sessionNodes.get(node.parentId.replace(/^session:/, ''));
  }

  async getChildren(node?: SessionsTreeNode): Promise<SessionsTreeNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'session') return this.sessionChildren(node);
    return [];
  }

  async loadMore(node: MoreNode): Promise<void> {
    if (node.parentId === undefined) {
      await this.root?.loadMore().catch((err: unknown) => this.deps.log.warn(describeFailure('load more sessions', err).logLine));
      this.changed.fire(undefined);
      return;
    }
    const sessionId = node.parentId.replace(/^session:/, '');
    await this.history.get(sessionId)?.loadMore().catch((err: unknown) => this.deps.log.warn(describeFailure('load more of the history', err).logLine));
    this.changed.fire(this.sessionNodes.get(sessionId));
  }

  private async rootChildren(): Promise<SessionsTreeNode[]> {
    const gate = this.gate.check();
    if (gate.kind === 'starting') return [gate.node];
    if (gate.kind === 'failed') return [this.errorNode(undefined, 'start the local service', gate.error)];
    if (!this.root) {
      const keyword = this.keywordValue;
      this.root = new PagedList<Session>(
        async (pageNumber, pageSize) => (await this.deps.client()).sessions.list({ pageNumber, pageSize, ...(keyword ? { keyword } : {}) }),
        (s) => s.id,
        this.pageSize.sessions,
      );
    }
    return pagedNodes<Session, SessionsTreeNode>({
      list: this.root,
      tree: TREE,
      toNode: (s) => this.toSessionNode(s),
      ...noMatchNotice('session', this.keywordValue, 'teamData.sessions.clearFilter'),
      failed: (err) => (err instanceof ConnectionError ? [] : [this.errorNode(undefined, 'load sessions', err)]),
    });
  }

  private async sessionChildren(node: SessionNode): Promise<SessionsTreeNode[]> {
    const sessionId = node.session.id;
    const list = listFor(this.history, sessionId, () => new PagedList<HistoryRecord>(
      async (pageNumber, pageSize) => (await this.deps.client()).sessions.history(sessionId, { pageNumber, pageSize }),
      (r) => r.jobId,
      this.pageSize.history,
    ));
    return pagedNodes<HistoryRecord, SessionsTreeNode>({
      list,
      tree: TREE,
      parentId: node.id,
      toNode: (r) => this.toJobNode(node, r),
      empty: { text: 'No questions yet: Ask in This Session…', command: { id: 'teamData.sessions.ask', title: 'Ask in This Session…', args: [node] } },
      failed: (err) => [this.errorNode(node.id, 'load the session history', err)],
    });
  }

  private toSessionNode(s: Session): SessionNode {
    const existing = this.sessionNodes.get(s.id);
    if (existing) {
      existing.session = s;
      return existing;
    }
    const node: SessionNode = { kind: 'session', id: nodeId.session(s.id), session: s };
    this.sessionNodes.set(s.id, node);
    return node;
  }

  private toJobNode(parent: SessionNode, r: HistoryRecord): JobNode {
    const id = nodeId.job(parent.session.id, r.jobId);
    const existing = this.jobNodes.get(id);
    if (existing) {
      existing.record = r;
      return existing;
    }
    const node: JobNode = { kind: 'job', id, sessionId: parent.session.id, jobId: r.jobId, question: questionOf(r), record: r, parentId: parent.id };
    this.jobNodes.set(id, node);
    return node;
  }

  private errorNode(parentId: string | undefined, what: string, err: unknown): MessageNode {
    const report = describeFailure(what, err);
    this.deps.log.warn(report.logLine);
    return failureNode(TREE, parentId, report, 'teamData.sessions.refresh');
  }

  dispose(): void {
    this.changed.dispose();
  }
}
