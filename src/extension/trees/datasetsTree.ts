/**
 * The Datasets tree: datasets → data sources, paged ("Load more…"), filterable by keyword, live
 * while anything is processing (polling that backs off and stops), with `getParent` so a data
 * source can be revealed from the answer panel's source chips.
 */
import * as vscode from 'vscode';
import type { TeamDataClient } from '../../api/index';
import type { DataSource, Dataset } from '../../shared/domain';
import { ConnectionError } from '../connection/connection';
import type { Log } from '../log';
import { describeFailure } from '../ui/failures';
import { PagedList } from './pagedList';
import { failureNode, listFor, noMatchNotice, pagedNodes } from './pagedNodes';
import { StartGate, type ServiceStarter } from './startGate';
import { SyncPoller } from './syncPoller';
import { nodeId, type DataSourceNode, type DatasetNode, type DatasetsTreeNode, type GlossaryNode, type MessageNode, type MoreNode } from './nodes';
import { dataSourceItem, datasetItem, glossaryEntryItem, glossaryItem, isPending, messageItem, moreItem } from './treeItems';

export const DATASETS_VIEW = 'teamData.datasets';
const TREE = 'datasets';

export interface TreeDeps {
  /** The current client; rejects with ConnectionError when not signed in. */
  client(): Promise<TeamDataClient>;
  /** The service the roots wait for before they load (see startGate.ts). */
  starter: ServiceStarter;
  log: Log;
}

export class DatasetsTreeProvider implements vscode.TreeDataProvider<DatasetsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<DatasetsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private root: PagedList<Dataset> | undefined;
  private readonly children = new Map<string, PagedList<DataSource>>();
  private readonly datasetNodes = new Map<string, DatasetNode>();
  private readonly sourceNodes = new Map<string, DataSourceNode>();
  private readonly glossaryNodes = new Map<string, GlossaryNode>();
  private keywordValue = '';
  private view: vscode.TreeView<DatasetsTreeNode> | undefined;
  readonly poller: SyncPoller;
  /** Keeps the root from looking empty while the service starts. */
  readonly gate: StartGate;
  /** Page sizes; the extension-host tests lower them to exercise "Load more…". */
  pageSize = { datasets: 25, dataSources: 50 };

  constructor(private readonly deps: TreeDeps) {
    this.gate = new StartGate(TREE, deps.starter, () => this.changed.fire(undefined));
    this.poller = new SyncPoller({
      poll: (datasetId) => this.pollDataset(datasetId),
      active: () => this.view?.visible ?? true,
      moving: (datasetId) => (this.children.get(datasetId)?.items ?? []).some((ds) => ds.progress !== undefined),
      onGiveUp: (datasetId) => deps.log.info(`Stopped live refresh of dataset ${datasetId}: still processing after 10 minutes; use Refresh to check again`),
    });
  }

  /** Connects the view (for visibility-aware polling and the filter description). */
  attach(view: vscode.TreeView<DatasetsTreeNode>): vscode.Disposable {
    this.view = view;
    return vscode.Disposable.from(
      view.onDidCollapseElement((e) => {
        if (e.element.kind === 'dataset') this.poller.untrack(e.element.dataset.id);
      }),
      view.onDidExpandElement((e) => {
        if (e.element.kind === 'dataset' && this.hasPending(e.element.dataset.id)) this.poller.track(e.element.dataset.id);
      }),
    );
  }

  get keyword(): string {
    return this.keywordValue;
  }

  /** Filters datasets by name or description (the service matches); empty clears the filter. */
  setKeyword(keyword: string): void {
    this.keywordValue = keyword.trim();
    void vscode.commands.executeCommand('setContext', 'teamData.datasetsFiltered', this.keywordValue !== '');
    if (this.view) this.view.description = this.keywordValue ? `filter: ${this.keywordValue}` : undefined;
    this.refresh();
  }

  /** Forgets everything loaded and asks the view to load again. */
  refresh(): void {
    this.gate.reset();
    this.root = undefined;
    this.children.clear();
    this.datasetNodes.clear();
    this.sourceNodes.clear();
    this.poller.clear();
    this.changed.fire(undefined);
  }

  /** Reloads one dataset's data sources (after an upload or delete) and starts live refresh. */
  async refreshDataset(datasetId: string): Promise<void> {
    const list = this.children.get(datasetId);
    const node = this.datasetNodes.get(datasetId);
    if (!list || !node) {
      // Not loaded yet (or a new dataset): the root must learn about it.
      if (!node) this.refresh();
      else this.changed.fire(node);
      return;
    }
    await list.reload().catch(() => undefined);
    this.changed.fire(node);
    if (this.hasPending(datasetId)) this.poller.track(datasetId);
  }

  /** Loaded datasets with a source that reads `path` in place (to show an edit being re-read). */
  datasetsReading(path: string): string[] {
    const out = new Set<string>();
    for (const n of this.sourceNodes.values()) if (n.dataSource.path === path) out.add(n.dataSource.datasetId);
    return [...out];
  }

  /** Removes a dataset locally after a delete (the next fetch confirms). */
  forgetDataset(datasetId: string): void {
    this.root?.remove(datasetId);
    this.children.delete(datasetId);
    this.datasetNodes.delete(datasetId);
    this.poller.untrack(datasetId);
    this.changed.fire(undefined);
  }

  getTreeItem(node: DatasetsTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'dataset':
        return datasetItem(node);
      case 'dataSource':
        return dataSourceItem(node);
      case 'glossary':
        return glossaryItem(node);
      case 'glossaryEntry':
        return glossaryEntryItem(node);
      case 'more':
        return moreItem(node);
      case 'message':
        return messageItem(node);
    }
  }

  getParent(node: DatasetsTreeNode): DatasetsTreeNode | undefined {
    if (node.kind === 'dataset') return undefined;
    if (node.kind === 'glossaryEntry') return this.glossaryNodes.get(node.datasetId);
    if (node.parentId === undefined) return undefined;
    const datasetId = node.parentId.replace(/^dataset:/, '');
    return this.datasetNodes.get(datasetId);
  }

  async getChildren(node?: DatasetsTreeNode): Promise<DatasetsTreeNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'dataset') return this.datasetChildren(node);
    if (node.kind === 'glossary') {
      return node.entries.map((entry) => ({ kind: 'glossaryEntry' as const, id: nodeId.glossaryEntry(node.datasetId, entry), parentId: node.id, datasetId: node.datasetId, entry }));
    }
    return [];
  }

  /** Loads the next page under `node`'s parent. */
  async loadMore(node: MoreNode): Promise<void> {
    if (node.parentId === undefined) {
      await this.root?.loadMore().catch((err: unknown) => this.deps.log.warn(describeFailure('load more datasets', err).logLine));
      this.changed.fire(undefined);
      return;
    }
    const datasetId = node.parentId.replace(/^dataset:/, '');
    await this.children.get(datasetId)?.loadMore().catch((err: unknown) => this.deps.log.warn(describeFailure('load more data sources', err).logLine));
    this.changed.fire(this.datasetNodes.get(datasetId));
  }

  /** The node of a loaded data source, loading its dataset's first page when needed (for reveal). */
  async findDataSource(datasetId: string, dataSourceId: string): Promise<DataSourceNode | undefined> {
    if (!this.root?.loaded) await this.rootChildren();
    let dsNode = this.datasetNodes.get(datasetId);
    if (!dsNode) {
      const client = await this.deps.client();
      const dataset = await client.datasets.list({ pageSize: 100 }).then((p) => p.records.find((d) => d.id === datasetId));
      if (!dataset) return undefined;
      dsNode = this.datasetNode(dataset);
    }
    const id = nodeId.dataSource(datasetId, dataSourceId);
    if (!this.sourceNodes.has(id)) await this.datasetChildren(dsNode);
    return this.sourceNodes.get(id);
  }

  private async rootChildren(): Promise<DatasetsTreeNode[]> {
    const gate = this.gate.check();
    if (gate.kind === 'starting') return [gate.node];
    if (gate.kind === 'failed') return [this.errorNode(undefined, 'start the local service', gate.error)];
    if (!this.root) {
      const keyword = this.keywordValue;
      this.root = new PagedList<Dataset>(
        async (pageNumber, pageSize) => (await this.deps.client()).datasets.list({ pageNumber, pageSize, ...(keyword ? { keyword } : {}) }),
        (d) => d.id,
        this.pageSize.datasets,
      );
    }
    return pagedNodes<Dataset, DatasetsTreeNode>({
      list: this.root,
      tree: TREE,
      toNode: (d) => this.datasetNode(d),
      ...noMatchNotice('dataset', this.keywordValue, 'teamData.datasets.clearFilter'),
      // Not signed in: an empty tree shows the welcome view with its Sign In button.
      failed: (err) => (err instanceof ConnectionError ? [] : [this.errorNode(undefined, 'load datasets', err)]),
    });
  }

  private async datasetChildren(node: DatasetNode): Promise<DatasetsTreeNode[]> {
    const datasetId = node.dataset.id;
    const list = listFor(this.children, datasetId, () => new PagedList<DataSource>(
      async (pageNumber, pageSize) => (await this.deps.client()).dataSources.list(datasetId, { pageNumber, pageSize }),
      (d) => d.id,
      this.pageSize.dataSources,
    ));
    const nodes = await pagedNodes<DataSource, DatasetsTreeNode>({
      list,
      tree: TREE,
      parentId: node.id,
      toNode: (ds) => this.sourceNode(node.id, ds),
      empty: { text: 'No files yet: use Add Files…', command: { id: 'teamData.datasets.addFiles', title: 'Add Files…', args: [node] } },
      failed: (err) => [this.errorNode(node.id, 'load the data sources', err)],
    });
    if (this.hasPending(datasetId)) this.poller.track(datasetId);
    const glossary = await this.glossaryNode(node);
    return glossary !== undefined ? [...nodes, glossary] : nodes;
  }

  /**
   * The dataset's glossary, when it has one: the local service keeps it; the hosted service has
   * none (its NOT_FOUND means no node, and is not an error to show).
   */
  private async glossaryNode(node: DatasetNode): Promise<GlossaryNode | undefined> {
    const datasetId = node.dataset.id;
    const entries = await (await this.deps.client()).datasets.glossary(datasetId).catch(() => []);
    if (entries.length === 0) {
      this.glossaryNodes.delete(datasetId);
      return undefined;
    }
    const g: GlossaryNode = { kind: 'glossary', id: nodeId.glossary(datasetId), parentId: node.id, datasetId, entries };
    this.glossaryNodes.set(datasetId, g);
    return g;
  }

  private async pollDataset(datasetId: string): Promise<boolean> {
    const list = this.children.get(datasetId);
    const node = this.datasetNodes.get(datasetId);
    if (!list || !node) return false;
    const before = JSON.stringify(list.items);
    await list.reload();
    if (JSON.stringify(list.items) !== before) this.changed.fire(node);
    return this.hasPending(datasetId);
  }

  private hasPending(datasetId: string): boolean {
    return (this.children.get(datasetId)?.items ?? []).some(isPending);
  }

  private datasetNode(d: Dataset): DatasetNode {
    const id = nodeId.dataset(d.id);
    const existing = this.datasetNodes.get(d.id);
    if (existing) {
      existing.dataset = d;
      return existing;
    }
    const node: DatasetNode = { kind: 'dataset', id, dataset: d };
    this.datasetNodes.set(d.id, node);
    return node;
  }

  private sourceNode(parentId: string, ds: DataSource): DataSourceNode {
    const id = nodeId.dataSource(ds.datasetId || parentId.replace(/^dataset:/, ''), ds.id);
    const existing = this.sourceNodes.get(id);
    if (existing) {
      existing.dataSource = ds;
      return existing;
    }
    const node: DataSourceNode = { kind: 'dataSource', id, dataSource: ds, parentId };
    this.sourceNodes.set(id, node);
    return node;
  }

  private errorNode(parentId: string | undefined, what: string, err: unknown): MessageNode {
    const report = describeFailure(what, err);
    this.deps.log.warn(report.logLine);
    return failureNode(TREE, parentId, report, 'teamData.datasets.refresh');
  }

  dispose(): void {
    this.poller.dispose();
    this.changed.dispose();
  }
}
