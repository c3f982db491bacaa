/**
 * The status bar item that names the language model answering with the engine (issue 26), next
 * to the Team Data item; hidden when no model is chosen. Clicking it opens the model choice.
 */
import * as vscode from 'vscode';
import { modelStatusText, type ModelStatus } from '../model/modelChoice';

export class ModelStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('teamData.model', vscode.StatusBarAlignment.Left, 9);
    this.item.name = 'Team Data Analysis: Language Model';
    this.item.command = 'teamData.chooseModel';
  }

  /** The text shown now, empty when hidden (the tests read it). */
  get text(): string {
    return this.visible ? this.item.text : '';
  }

  private visible = false;

  render(status: ModelStatus): void {
    const s = modelStatusText(status);
    this.visible = s.visible;
    if (!s.visible) {
      this.item.hide();
      return;
    }
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.accessibilityInformation = { label: `Team Data Analysis language model: ${s.tooltip}` };
    this.item.backgroundColor = s.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
