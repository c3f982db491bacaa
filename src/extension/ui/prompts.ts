/**
 * The UI-prompt seam: every question the extension asks the user goes through {@link UiPrompts}.
 * Production uses {@link VsCodePrompts}; the extension-host tests swap in a scripted
 * implementation (through the extension's test API) so confirm dialogs are answered, not skipped.
 */
import * as vscode from 'vscode';

export interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  /** Pre-selected in a multi-select pick. */
  picked?: boolean;
  value: T;
}

export interface PickOptions {
  title?: string;
  placeHolder?: string;
  /** Index of the item to put the cursor on (single pick). */
  activeIndex?: number;
}

export interface InputOptions {
  title?: string;
  prompt?: string;
  value?: string;
  placeHolder?: string;
  password?: boolean;
  /** Returns an error text, or undefined when the value is acceptable. */
  validate?: (value: string) => string | undefined;
}

export interface UiPrompts {
  /** A modal yes/no question; true only when the user chose `confirmLabel`. */
  confirm(message: string, opts: { detail?: string; confirmLabel: string }): Promise<boolean>;
  /** A modal or non-modal message with buttons; resolves with the chosen button or undefined. */
  choose<T extends string>(message: string, buttons: readonly T[], opts?: { modal?: boolean; detail?: string; level?: 'info' | 'warning' | 'error' }): Promise<T | undefined>;
  input(opts: InputOptions): Promise<string | undefined>;
  pick<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T | undefined>;
  pickMany<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T[] | undefined>;
  openFiles(opts: { title: string; filters?: Record<string, string[]>; canSelectMany: boolean }): Promise<vscode.Uri[] | undefined>;
  /** A save dialog; the chosen file, or undefined when cancelled. */
  saveFile(opts: SaveFileOptions): Promise<vscode.Uri | undefined>;
}

export interface SaveFileOptions {
  title: string;
  defaultUri?: vscode.Uri;
  filters?: Record<string, string[]>;
  saveLabel?: string;
}

type QuickItem<T> = vscode.QuickPickItem & { value: T };

function toQuickItems<T>(items: ReadonlyArray<PickItem<T>>): Array<QuickItem<T>> {
  return items.map((i) => ({ label: i.label, description: i.description, detail: i.detail, picked: i.picked, value: i.value }));
}

export class VsCodePrompts implements UiPrompts {
  async confirm(message: string, opts: { detail?: string; confirmLabel: string }): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail: opts.detail }, opts.confirmLabel);
    return choice === opts.confirmLabel;
  }

  async choose<T extends string>(message: string, buttons: readonly T[], opts: { modal?: boolean; detail?: string; level?: 'info' | 'warning' | 'error' } = {}): Promise<T | undefined> {
    const options: vscode.MessageOptions = { modal: opts.modal ?? false, detail: opts.detail };
    const show = opts.level === 'error' ? vscode.window.showErrorMessage : opts.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return show(message, options, ...buttons);
  }

  input(opts: InputOptions): Promise<string | undefined> {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: opts.title,
        prompt: opts.prompt,
        value: opts.value,
        placeHolder: opts.placeHolder,
        password: opts.password,
        ignoreFocusOut: true,
        validateInput: opts.validate ? (v) => opts.validate?.(v) : undefined,
      }),
    );
  }

  pick<T>(items: ReadonlyArray<PickItem<T>>, opts: PickOptions = {}): Promise<T | undefined> {
    return new Promise((resolve) => {
      const qp = vscode.window.createQuickPick<QuickItem<T>>();
      const quick = toQuickItems(items);
      qp.items = quick;
      qp.title = opts.title;
      qp.placeholder = opts.placeHolder;
      qp.matchOnDescription = true;
      qp.matchOnDetail = true;
      qp.ignoreFocusOut = true;
      const active = opts.activeIndex !== undefined ? quick[opts.activeIndex] : undefined;
      if (active) qp.activeItems = [active];
      let done = false;
      qp.onDidAccept(() => {
        done = true;
        resolve(qp.selectedItems[0]?.value ?? qp.activeItems[0]?.value);
        qp.hide();
      });
      qp.onDidHide(() => {
        if (!done) resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  }

  async pickMany<T>(items: ReadonlyArray<PickItem<T>>, opts: PickOptions = {}): Promise<T[] | undefined> {
    const chosen = await vscode.window.showQuickPick(toQuickItems(items), {
      title: opts.title,
      placeHolder: opts.placeHolder,
      canPickMany: true,
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    return chosen?.map((c) => c.value);
  }

  async openFiles(opts: { title: string; filters?: Record<string, string[]>; canSelectMany: boolean }): Promise<vscode.Uri[] | undefined> {
    return vscode.window.showOpenDialog({ title: opts.title, filters: opts.filters, canSelectMany: opts.canSelectMany, canSelectFiles: true, canSelectFolders: false, openLabel: 'Add' });
  }

  async saveFile(opts: SaveFileOptions): Promise<vscode.Uri | undefined> {
    return vscode.window.showSaveDialog({ title: opts.title, ...(opts.defaultUri ? { defaultUri: opts.defaultUri } : {}), ...(opts.filters ? { filters: opts.filters } : {}), saveLabel: opts.saveLabel ?? 'Save' });
  }
}

/** Holds the active prompts so tests can swap them at run time without re-activating. */
export class PromptsHolder implements UiPrompts {
  private current: UiPrompts;

  constructor(private readonly fallback: UiPrompts) {
    this.current = fallback;
  }

  /** Replaces the prompts; pass undefined to restore the real ones. */
  use(prompts: UiPrompts | undefined): void {
    this.current = prompts ?? this.fallback;
  }

  confirm(message: string, opts: { detail?: string; confirmLabel: string }): Promise<boolean> {
    return this.current.confirm(message, opts);
  }

  choose<T extends string>(message: string, buttons: readonly T[], opts?: { modal?: boolean; detail?: string; level?: 'info' | 'warning' | 'error' }): Promise<T | undefined> {
    return this.current.choose(message, buttons, opts);
  }

  input(opts: InputOptions): Promise<string | undefined> {
    return this.current.input(opts);
  }

  pick<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T | undefined> {
    return this.current.pick(items, opts);
  }

  pickMany<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T[] | undefined> {
    return this.current.pickMany(items, opts);
  }

  openFiles(opts: { title: string; filters?: Record<string, string[]>; canSelectMany: boolean }): Promise<vscode.Uri[] | undefined> {
    return this.current.openFiles(opts);
  }

  saveFile(opts: SaveFileOptions): Promise<vscode.Uri | undefined> {
    return this.current.saveFile(opts);
  }
}
