/**
 * Typed access to the scripted language model (test/fixtures/scriptedModel): a chat model
 * provider registered through VS Code's proposed `chatProvider` API by a second development
 * extension of the suite, whose replies the test scripts through commands.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { waitFor } from './helpers';

export const SCRIPTED_EXTENSION_ID = 'team-data-tests.scripted-model';
export const SCRIPTED_VENDOR = 'team-data-scripted';
export const SCRIPTED_MODEL_ID = 'scripted-model';

/** One scripted reply: a string is `{ text }`. */
export type ScriptedReply = string | {
  /** The whole reply, sent as one fragment (unless `chunks`). */
  text?: string;
  /** The reply streamed one fragment per entry. */
  chunks?: string[];
  /** Wait before the first fragment (a cancel ends the wait). */
  delayMs?: number;
  /** Wait between fragments. */
  chunkDelayMs?: number;
  /** After the fragments, fail the request with this message. */
  error?: string;
  /** With `error`: fail with vscode.LanguageModelError.<code>(error) instead of a plain Error. */
  errorCode?: 'NoPermissions' | 'Blocked' | 'NotFound';
  /** After the fragments, never finish until the request is cancelled or released. */
  hang?: boolean;
};

/** A reply chosen by what the prompt says (and which model was asked). */
export interface ScriptedRule {
  /** Regular expression (case-insensitive) tested on the request's whole text; absent = any. */
  when?: string;
  /** Only requests to this model id. */
  model?: string;
  reply: ScriptedReply;
  /** Use at most this many times. */
  times?: number;
}

/** What the provider received and how the request ended. */
export interface ScriptedRequest {
  seq: number;
  model: string;
  /** The extension that sent it (as VS Code tells the provider). */
  from: string;
  messages: Array<{ role: 'user' | 'assistant' | 'system' | string; name?: string; text: string }>;
  /** All messages' text, joined by newlines. */
  prompt: string;
  options: { justification?: string; modelOptions?: Record<string, unknown>; tools: string[] };
  startedAt: number;
  endedAt?: number;
  /** When the provider's cancellation token fired (even if the reply had already ended). */
  cancelledAt?: number;
  /** 'released': ended by the test (`release`/`reset`) while still running. */
  outcome: 'pending' | 'done' | 'cancelled' | 'released' | 'error';
  error?: string;
  /** 'queue', 'rule:<index>', 'fallback' or 'none'. */
  source: string;
  /** The text sent so far. */
  reply: string;
}

/** Model metadata for `addModel` (defaults: the scripted model's). */
export interface ScriptedModelMeta {
  id: string;
  name?: string;
  family?: string;
  version?: string;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** Set to make VS Code ask the user before another extension may use the model (as Copilot does). */
  auth?: true | { label: string };
  isDefault?: boolean;
  isUserSelectable?: boolean;
}

const run = <T>(name: string, ...args: unknown[]): Thenable<T> => vscode.commands.executeCommand<T>(`scriptedModel.${name}`, ...args);

export const scriptedModel = {
  /** Activates the provider's extension and waits until VS Code lists its default model. */
  async ready(timeoutMs = 20_000): Promise<vscode.LanguageModelChat> {
    const ext = vscode.extensions.getExtension(SCRIPTED_EXTENSION_ID);
    const loaded = vscode.extensions.all.filter((e) => !e.id.startsWith('vscode.')).map((e) => e.id).join(', ');
    assert.ok(ext, `${SCRIPTED_EXTENSION_ID} is not loaded (extensionHost.test.ts loads it beside the extension); loaded: ${loaded}`);
    await ext.activate();
    return waitFor('the scripted model in vscode.lm', async () => {
      const models = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, id: SCRIPTED_MODEL_ID });
      return models[0];
    }, timeoutMs);
  },
  /** Appends replies to the queue (served in order, before any rule); resolves with its length. */
  script: (replies: ScriptedReply | ScriptedReply[]): Thenable<number> => run('script', replies),
  /** Replaces the rules and the fallback reply (used when neither queue nor rule answers). */
  rules: (rules: ScriptedRule[], fallback?: ScriptedReply): Thenable<number> => run('rules', rules, fallback),
  requests: (): Thenable<ScriptedRequest[]> => run('requests'),
  /** Resolves once `count` requests arrived (with `settled`: and none is pending); rejects after `timeoutMs`. */
  waitForRequests: (count = 1, timeoutMs = 10_000, settled = false): Thenable<ScriptedRequest[]> => run('waitForRequests', count, timeoutMs, settled),
  /** Ends every running request (outcome 'released'; the caller's stream then ends); resolves with how many. */
  release: (): Thenable<number> => run('release'),
  /** Releases running requests; clears queue, rules, fallback, records and added models. */
  reset: (): Thenable<void> => run('reset'),
  addModel: (meta: ScriptedModelMeta): Thenable<string> => run('addModel', meta),
  removeModel: (id: string): Thenable<boolean> => run('removeModel', id),
  models: (): Thenable<string[]> => run('models'),
};
