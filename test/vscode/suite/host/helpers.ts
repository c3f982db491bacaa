/**
 * Helpers for the suites that run inside the real extension host: the extension's test API and
 * a scripted implementation of the extension's UI-prompt seam, so confirm dialogs, inputs and
 * quick picks are answered by the test (in order, each checked), never skipped.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { TeamDataExtensionApi } from '../../../../src/extension/extension';
import type { InputOptions, PickItem, PickOptions, SaveFileOptions, UiPrompts } from '../../../../src/extension/ui/prompts';

export const EXTENSION_NAME = 'team-data-analysis';

export function extension(): vscode.Extension<TeamDataExtensionApi> {
  const ext = vscode.extensions.all.find((e) => (e.packageJSON as { name?: string }).name === EXTENSION_NAME) as vscode.Extension<TeamDataExtensionApi> | undefined;
  assert.ok(ext, `${EXTENSION_NAME} is not loaded in this VS Code`);
  return ext;
}

export async function api(): Promise<TeamDataExtensionApi> {
  const ext = extension();
  return ext.isActive ? ext.exports : ext.activate();
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Step =
  | { kind: 'confirm'; match: RegExp; answer: boolean }
  | { kind: 'choose'; match: RegExp; answer: string | undefined }
  | { kind: 'input'; match: RegExp; answer: (o: InputOptions) => string | undefined }
  | { kind: 'pick'; match: RegExp; answer: (items: ReadonlyArray<PickItem<unknown>>, opts: PickOptions) => PickItem<unknown> | undefined }
  | { kind: 'pickMany'; match: RegExp; answer: (items: ReadonlyArray<PickItem<unknown>>) => Array<PickItem<unknown>> | undefined }
  | { kind: 'openFiles'; match: RegExp; answer: vscode.Uri[] | undefined }
  | { kind: 'saveFile'; match: RegExp; answer: vscode.Uri | undefined };

export interface Notification {
  level: string;
  message: string;
  buttons: readonly string[];
}

/**
 * Answers prompts from a script. Each prompt must match the next step (kind and a regex over
 * its title/prompt/message); anything else fails the test through `problems`. Non-modal
 * messages are notifications: recorded, answered as dismissed.
 */
export class ScriptedPrompts implements UiPrompts {
  private steps: Step[] = [];
  readonly notifications: Notification[] = [];
  readonly problems: string[] = [];
  readonly seen: string[] = [];

  expect(...steps: Step[]): this {
    this.steps.push(...steps);
    return this;
  }

  /** Every scripted step was used and nothing unexpected was asked. */
  assertDone(): void {
    assert.deepEqual(this.problems, [], `unexpected prompts:\n${this.problems.join('\n')}\nseen:\n${this.seen.join('\n')}`);
    assert.equal(this.steps.length, 0, `unused steps: ${this.steps.map((s) => `${s.kind} ${s.match}`).join(', ')}; seen:\n${this.seen.join('\n')}`);
  }

  errors(): Notification[] {
    return this.notifications.filter((n) => n.level === 'error');
  }

  private next<K extends Step['kind']>(kind: K, text: string): Extract<Step, { kind: K }> | undefined {
    this.seen.push(`${kind}: ${text}`);
    const step = this.steps[0];
    if (!step || step.kind !== kind || !step.match.test(text)) {
      this.problems.push(`${kind} "${text}" (next scripted: ${step ? `${step.kind} ${step.match}` : 'nothing'})`);
      return undefined;
    }
    this.steps.shift();
    return step as Extract<Step, { kind: K }>;
  }

  async confirm(message: string, opts: { detail?: string; confirmLabel: string }): Promise<boolean> {
    return this.next('confirm', `${message} ${opts.detail ?? ''}`)?.answer ?? false;
  }

  async choose<T extends string>(message: string, buttons: readonly T[], opts?: { modal?: boolean; level?: string }): Promise<T | undefined> {
    if (!opts?.modal) {
      this.notifications.push({ level: opts?.level ?? 'info', message, buttons });
      return undefined;
    }
    const step = this.next('choose', message);
    return step?.answer as T | undefined;
  }

  async input(opts: InputOptions): Promise<string | undefined> {
    const step = this.next('input', `${opts.title ?? ''} ${opts.prompt ?? ''}`);
    if (!step) return undefined;
    const value = step.answer(opts);
    if (value !== undefined && opts.validate) {
      const problem = opts.validate(value);
      if (problem) this.problems.push(`input "${opts.prompt}" rejected the scripted value: ${problem}`);
    }
    return value;
  }

  async pick<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T | undefined> {
    const step = this.next('pick', `${opts?.title ?? ''} ${opts?.placeHolder ?? ''}`);
    return step?.answer(items as ReadonlyArray<PickItem<unknown>>, opts ?? {})?.value as T | undefined;
  }

  async pickMany<T>(items: ReadonlyArray<PickItem<T>>, opts?: PickOptions): Promise<T[] | undefined> {
    const step = this.next('pickMany', `${opts?.title ?? ''} ${opts?.placeHolder ?? ''}`);
    return step?.answer(items as ReadonlyArray<PickItem<unknown>>)?.map((i) => i.value as T);
  }

  async openFiles(opts: { title: string }): Promise<vscode.Uri[] | undefined> {
    return this.next('openFiles', opts.title)?.answer;
  }

  async saveFile(opts: SaveFileOptions): Promise<vscode.Uri | undefined> {
    return this.next('saveFile', opts.title)?.answer;
  }
}

/** Picks the item whose label matches. */
export function labelled(re: RegExp): (items: ReadonlyArray<PickItem<unknown>>, opts?: PickOptions) => PickItem<unknown> | undefined {
  return (items) => {
    const found = items.find((i) => re.test(i.label));
    if (!found) throw new Error(`no item matches ${re}: ${items.map((i) => i.label).join(' | ')}`);
    return found;
  };
}

/** Takes the item the pick put the cursor on (what Enter would accept). */
export function activeItem(items: ReadonlyArray<PickItem<unknown>>, opts: PickOptions): PickItem<unknown> | undefined {
  return items[opts.activeIndex ?? 0];
}

/** A user-facing text must say something and never leak internals. */
export function assertHumane(text: string): void {
  assert.ok(text.trim().length > 0, 'empty message');
  assert.ok(!/\bundefined\b|\bnull\b|\[object Object\]/.test(text), `message leaks internals: ${text}`);
  assert.ok(!/\n\s+at .+:\d+/.test(text), `message holds a stack trace: ${text}`);
}

export function workspaceFile(name: string): vscode.Uri {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(root, 'the tests need a workspace folder');
  return vscode.Uri.joinPath(root, name);
}

/**
 * Scripted prompts for every test of the enclosing suite: a fresh script before each test, the
 * extension's own prompts back after it, and every notification shown checked for humane text.
 * Call the returned function inside tests for the current script.
 */
export function useScriptedPrompts(): () => ScriptedPrompts {
  let prompts: ScriptedPrompts | undefined;
  beforeEach(async () => {
    prompts = new ScriptedPrompts();
    (await api()).usePrompts(prompts);
  });
  afterEach(async () => {
    (await api()).usePrompts(undefined);
    for (const n of prompts?.notifications ?? []) assertHumane(n.message);
  });
  return () => {
    if (!prompts) throw new Error('scripted prompts exist only while a test runs');
    return prompts;
  };
}
