/**
 * A tree's welcome text ("No datasets yet") may show only once VS Code has the tree's first
 * answer. Until the extension has activated, and again until the first root arrives, the view is
 * empty because nothing answered yet, not because there is no data; VS Code showed the welcome
 * then (issue 24, a window reload). This wrapper sets a context key (`teamData.<view>Loaded`) after
 * the first root answer went back to VS Code; the welcome texts in package.json wait for it and
 * say "Starting Team Data Analysis…" before.
 */
import * as vscode from 'vscode';

/**
 * `onFirstRequest`: called when VS Code first asks for the root (how long after the extension
 * host started the view had its data provider: the startup figure in the log).
 */
export function announcingFirstAnswer<T>(provider: vscode.TreeDataProvider<T>, contextKey: string, onFirstRequest?: () => void): vscode.TreeDataProvider<T> {
  let announced = false;
  let requested = false;
  const wrapped: vscode.TreeDataProvider<T> = {
    getTreeItem: (node) => provider.getTreeItem(node),
    getChildren: async (node) => {
      if (node === undefined && !requested) {
        requested = true;
        onFirstRequest?.();
      }
      const children = await provider.getChildren(node);
      if (node === undefined && !announced) {
        announced = true;
        // After this answer has gone back to VS Code (messages keep their order), so the view is
        // never empty while the key says it has answered.
        setTimeout(() => void vscode.commands.executeCommand('setContext', contextKey, true), 0);
      }
      return children;
    },
  };
  if (provider.onDidChangeTreeData) wrapped.onDidChangeTreeData = provider.onDidChangeTreeData;
  const getParent = provider.getParent?.bind(provider);
  if (getParent) wrapped.getParent = getParent;
  const resolve = provider.resolveTreeItem?.bind(provider);
  if (resolve) wrapped.resolveTreeItem = resolve;
  return wrapped;
}
