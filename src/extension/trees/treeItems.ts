/**
 * How nodes look: labels, icons (ThemeIcon + ThemeColor so every theme gets its own colours),
 * tooltips and the `contextValue`s that package.json's `view/item/context` menus match.
 */
import * as vscode from 'vscode';
import { formatBytes } from '../../shared/byteSize';
import type { DataSource } from '../../shared/domain';
import { plainQuestion } from '../../shared/plainQuestion';
import { cacheDetail, cacheText, readingText, rowsText } from '../../shared/sourceActivity';
import { sessionRowLabel, sessionSettingsLabel, sessionSettingsText } from '../../shared/sessionLabels';
import type { DataSourceNode, DatasetNode, GlossaryEntryNode, GlossaryNode, JobNode, MessageNode, MoreNode, SessionNode } from './nodes';
import { jobAccessibleName, oneLine } from './nodes';

/** The four states users see; `invalid` splits into waiting and failed (it has an error then). */
export type SourceState = 'awaiting' | 'synching' | 'synched' | 'failed';

export function sourceState(ds: DataSource): SourceState {
  if (ds.status === 'synched') return 'synched';
  if (ds.status === 'synching') return 'synching';
  return ds.error ? 'failed' : 'awaiting';
}

/** Still moving: the tree keeps polling while any source is in one of these. */
export function isPending(ds: DataSource): boolean {
  const s = sourceState(ds);
  return s === 'awaiting' || s === 'synching';
}

const STATE_LABEL: Record<SourceState, string> = {
  awaiting: 'waiting to be processed',
  synching: 'processing…',
  synched: 'ready',
  failed: 'failed',
};

function stateIcon(state: SourceState): vscode.ThemeIcon {
  switch (state) {
    case 'awaiting':
      return new vscode.ThemeIcon('clock', new vscode.ThemeColor('charts.yellow'));
    case 'synching':
      return new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
    case 'synched':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
  }
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>&]/g, (c) => `\\${c}`);
}

/** Collapsed at first; VS Code keeps each node's expansion by its stable id across refreshes. */
export function datasetItem(node: DatasetNode): vscode.TreeItem {
  const d = node.dataset;
  const item = new vscode.TreeItem(d.name || '(unnamed dataset)', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.description = oneLine(d.description, 60);
  item.iconPath = new vscode.ThemeIcon('database');
  item.contextValue = 'dataset';
  const md = new vscode.MarkdownString(`**${escapeMd(d.name || '(unnamed dataset)')}**`);
  if (d.description) md.appendMarkdown(`\n\n${escapeMd(d.description)}`);
  md.appendMarkdown(`\n\nid: \`${d.id.replace(/`/g, '')}\``);
  item.tooltip = md;
  return item;
}

export function dataSourceItem(node: DataSourceNode): vscode.TreeItem {
  const ds = node.dataSource;
  const state = sourceState(ds);
  const item = new vscode.TreeItem(ds.name || ds.fileName || '(unnamed file)', vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  // An in-place file that changed is read again; saying so explains why a ready source is busy.
  const label = readingText(ds) ?? (ds.rereading === true ? 'changed, re-reading…' : STATE_LABEL[state]);
  const rows = rowsText(ds);
  item.description = state === 'synched' ? ['ready', rows, ds.path !== undefined ? 'in place' : undefined, cacheText(ds)].filter(Boolean).join(' · ') : label;
  item.iconPath = stateIcon(state);
  item.contextValue = `dataSource.${state}`;
  const md = new vscode.MarkdownString(`**${escapeMd(ds.name || ds.fileName)}**`);
  if (ds.fileName && ds.fileName !== ds.name) md.appendMarkdown(`\n\nfile: ${escapeMd(ds.fileName)}`);
  md.appendMarkdown(`\n\nstatus: ${label}${state === 'synched' && rows !== undefined ? ` · ${rows}` : ''}`);
  const cached = cacheDetail(ds);
  if (ds.path !== undefined) md.appendMarkdown(`\n\nread in place${cached === undefined ? ' (no copy)' : ''}: ${escapeMd(ds.path)}`);
  if (typeof ds.size === 'number') md.appendMarkdown(` · ${formatBytes(ds.size)}`);
  if (cached !== undefined) md.appendMarkdown(`\n\n${escapeMd(cached)}`);
  if (state === 'failed' && ds.error) md.appendMarkdown(`\n\n$(error) ${escapeMd(ds.error)}`);
  md.supportThemeIcons = true;
  item.tooltip = md;
  item.accessibilityInformation = { label: `${ds.name || ds.fileName}, ${STATE_LABEL[state]}${state === 'failed' && ds.error ? `: ${ds.error}` : ''}` };
  return item;
}

export function sessionItem(node: SessionNode): vscode.TreeItem {
  const s = node.session;
  const title = s.title.trim() || 'Untitled session';
  const item = new vscode.TreeItem(oneLine(title, 80), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  const settings = sessionSettingsLabel(s.languageType, s.jobMode);
  if (settings !== '') item.description = settings;
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  item.contextValue = 'session';
  item.accessibilityInformation = { label: sessionRowLabel(oneLine(title, 80), settings) };
  const md = new vscode.MarkdownString(`**${escapeMd(title)}**\n\n${escapeMd(sessionSettingsText(s.languageType, s.jobMode, s.maxMessagesInContext))}`);
  item.tooltip = md;
  return item;
}

/** A past job: its question; one that did not finish says so and offers Retry (`job.cancelled`, `job.failed`). */
export function jobItem(node: JobNode): vscode.TreeItem {
  // (A question asked from a chip is the engine's sentence: named as it reads, without its markup.)
  const item = new vscode.TreeItem(oneLine(plainQuestion(node.question), 80), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  const state = node.record.answer.state;
  item.iconPath = state === 'cancelled' ? new vscode.ThemeIcon('circle-slash') : state === 'error' ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')) : new vscode.ThemeIcon('comment');
  item.contextValue = state === 'cancelled' ? 'job.cancelled' : state === 'error' ? 'job.failed' : 'job';
  if (state !== undefined) item.description = state === 'cancelled' ? 'cancelled' : 'failed';
  item.tooltip = state === 'cancelled' ? `${node.question}\n\nCancelled before the answer was complete. Retry asks it again.` : state === 'error' ? `${node.question}\n\nThe answer failed. Retry asks it again.` : node.question;
  item.command = { command: 'teamData.openJob', title: 'Open Answer', arguments: [node] };
  item.accessibilityInformation = { label: jobAccessibleName(node.question, state) };
  return item;
}

export function moreItem(node: MoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = `${node.remaining} more`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'loadMore';
  item.command = { command: 'teamData.loadMore', title: 'Load More', arguments: [node] };
  return item;
}

export function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = node.severity === 'error'
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
    : new vscode.ThemeIcon(node.severity === 'progress' ? 'loading~spin' : 'info');
  item.tooltip = node.tooltip ?? node.text;
  item.contextValue = 'message';
  if (node.command) item.command = { command: node.command.id, title: node.command.title, arguments: node.command.args };
  return item;
}

/** The dataset's glossary: collapsed, with how many meanings it holds. */
export function glossaryItem(node: GlossaryNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Glossary', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.description = `${node.entries.length} ${node.entries.length === 1 ? 'meaning' : 'meanings'}`;
  item.iconPath = new vscode.ThemeIcon('book');
  item.contextValue = 'glossary';
  item.tooltip = 'Words you gave a meaning in answers about this dataset; every question reads them that way.';
  return item;
}

/** One meaning: "heft" → `wt` (or → "K" of `mfr`). */
export function glossaryEntryItem(node: GlossaryEntryNode): vscode.TreeItem {
  const e = node.entry;
  const target = e.value !== undefined ? `"${e.value}" of ${e.column}` : e.column;
  const item = new vscode.TreeItem(`"${e.phrase}"`, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = `→ ${target}${e.table !== undefined ? ` (${e.table})` : ''}`;
  item.iconPath = new vscode.ThemeIcon('symbol-key');
  item.contextValue = 'glossaryEntry';
  item.tooltip = new vscode.MarkdownString(`**${escapeMd(e.phrase)}** means ${e.value !== undefined ? `the value ${escapeMd(e.value)} of ` : ''}\`${e.column.replace(/`/g, "'")}\``);
  return item;
}
