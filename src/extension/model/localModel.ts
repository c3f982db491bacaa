/**
 * The language model this window lends the local service (issue 26): reads `teamData.localModel.*`,
 * asks consent before a model's first use, serves a VS Code model through the loopback bridge
 * (only while `vscode` mode is on), reads an endpoint's key from SecretStorage, registers the
 * resulting endpoint with the window's lease, and shows it in the status bar. Any change of the
 * settings, the key or the available models is applied at once, one change at a time.
 *
 * The key and the bridge token go to the service in the lease's request body only: never to the
 * settings, the log, an error text or the webview.
 */
import * as vscode from 'vscode';
import type { ModelEndpoint } from '../../shared/localModel';
import { affectsLocalModel, readLocalModelSettings } from '../config';
import type { UiPrompts } from '../ui/prompts';
import { ModelStatusItem } from '../ui/modelStatusBar';
import { startModelBridge, type ModelBridge } from './modelBridge';
import {
  consentDecision, consentKey, consentPrompt, endpointIdentity, endpointKeyName, timeoutMs, vscodeIdentity,
  type ConsentDecision, type LocalModelSettings, type ModelIdentity, type ModelStatus,
} from './modelChoice';
import { findChatModel, vscodeModelSend } from './vscodeModel';

export interface LocalModelDeps {
  globalState: vscode.Memento;
  secrets: vscode.SecretStorage;
  prompts: UiPrompts;
  log(level: 'info' | 'warn', message: string): void;
  /** Registers {@link LocalModelManager.model} with the window's lease now (supervisor.updateModel). */
  push(): Promise<void>;
}

export interface ApplyOptions {
  /** Whether a consent modal may be shown (not at startup, nor for a key or provider change). */
  mayAsk: boolean;
}

interface Outcome {
  endpoint?: ModelEndpoint;
  status: ModelStatus;
  usesBridge: boolean;
}

export class LocalModelManager implements vscode.Disposable {
  private endpoint: ModelEndpoint | undefined;
  private statusValue: ModelStatus = { kind: 'off' };
  private bridge: ModelBridge | undefined;
  /** The VS Code model the bridge serves (read at each of its requests). */
  private bridgedId = '';
  private readonly declined = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private batching = 0;
  private disposed = false;
  private readonly item = new ModelStatusItem();
  private readonly changed = new vscode.EventEmitter<ModelStatus>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: LocalModelDeps) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsLocalModel(e) && this.batching === 0) void this.apply({ mayAsk: true });
      }),
      deps.secrets.onDidChange((e) => {
        if (e.key.startsWith('teamData.localModel.endpointKey:')) void this.apply({ mayAsk: false });
      }),
      // Copilot signing in (or out) later: the chosen model becomes available (or not).
      vscode.lm.onDidChangeChatModels(() => {
        if (readLocalModelSettings().mode === 'vscode') void this.apply({ mayAsk: false });
      }),
    );
  }

  /** The model registered with the lease now (the supervisor's `model` option reads this). */
  get model(): ModelEndpoint | undefined {
    return this.endpoint;
  }

  get status(): ModelStatus {
    return this.statusValue;
  }

  /** The status bar item's text now, empty when hidden (tests read it). */
  get statusText(): string {
    return this.item.text;
  }

  /** The user chose this model again explicitly: a consent declined earlier in this window is asked again. */
  askAgain(m: Pick<ModelIdentity, 'mode' | 'id'>): void {
    this.declined.delete(consentKey(m));
  }

  /** Runs `fn` (several setting writes) without applying the settings half-written. */
  async batch<T>(fn: () => Promise<T>): Promise<T> {
    this.batching++;
    try {
      return await fn();
    } finally {
      this.batching--;
    }
  }

  /** Applies the settings now (after any change still being applied); resolves with the status. */
  apply(o: ApplyOptions): Promise<ModelStatus> {
    const run = this.queue.then(() => this.applyNow(o));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyNow(o: ApplyOptions): Promise<ModelStatus> {
    if (this.disposed) return this.statusValue;
    const s = readLocalModelSettings();
    let out: Outcome;
    try {
      out = s.mode === 'endpoint' ? await this.forEndpoint(s, o) : s.mode === 'vscode' ? await this.forVsCode(s, o) : { status: { kind: 'off' }, usesBridge: false };
    } catch (e) {
      out = { status: { kind: 'unavailable', why: e instanceof Error ? e.message : String(e) }, usesBridge: false };
    }
    if (!out.usesBridge) await this.stopBridge();
    const before = this.endpoint;
    this.endpoint = out.endpoint;
    // The status bar says it at once; the lease may wait for a service still starting.
    this.setStatus(out.status);
    if (!sameEndpoint(before, out.endpoint)) {
      this.deps.log('info', out.endpoint ? `Language model for questions: ${out.endpoint.label}` : 'No language model for questions: the built-in engine answers alone');
      await this.deps.push().catch((e: unknown) => this.deps.log('warn', `telling the local service about the language model failed: ${e instanceof Error ? e.message : String(e)}`));
    }
    return out.status;
  }

  private async forEndpoint(s: LocalModelSettings, o: ApplyOptions): Promise<Outcome> {
    const id = endpointIdentity(s);
    if (!('id' in id)) return { status: { kind: 'unavailable', why: id.why }, usesBridge: false };
    const consent = await this.consent(id, o);
    if (consent !== 'use') return { status: { kind: 'noConsent', label: id.label, asked: consent === 'declined' }, usesBridge: false };
    const key = await Promise.resolve(this.deps.secrets.get(endpointKeyName(s.endpointUrl))).catch(() => undefined);
    const endpoint: ModelEndpoint = {
      baseUrl: s.endpointUrl.replace(/\/+$/, ''), model: s.endpointModel, label: id.label, timeoutMs: timeoutMs(s.timeoutSeconds),
      ...(key ? { apiKey: key } : {}),
    };
    return { endpoint, status: { kind: 'active', label: id.label }, usesBridge: false };
  }

  private async forVsCode(s: LocalModelSettings, o: ApplyOptions): Promise<Outcome> {
    if (s.vscodeModel === '') return { status: { kind: 'unavailable', why: 'no VS Code language model is chosen yet' }, usesBridge: false };
    const m = await findChatModel(s.vscodeModel);
    if (!m) return { status: { kind: 'unavailable', why: `the VS Code language model ${s.vscodeModel} is not available (is Copilot or its provider installed and signed in?)` }, usesBridge: false };
    const id = vscodeIdentity(m);
    const consent = await this.consent(id, o);
    if (consent !== 'use') return { status: { kind: 'noConsent', label: id.label, asked: consent === 'declined' }, usesBridge: false };
    this.bridgedId = m.id;
    const bridge = await this.ensureBridge();
    const endpoint: ModelEndpoint = { baseUrl: bridge.baseUrl, model: m.id, apiKey: bridge.token, label: id.label, timeoutMs: timeoutMs(s.timeoutSeconds) };
    return { endpoint, status: { kind: 'active', label: id.label }, usesBridge: true };
  }

  private async consent(m: ModelIdentity, o: ApplyOptions): Promise<ConsentDecision> {
    const key = consentKey(m);
    const decision = consentDecision({ accepted: this.deps.globalState.get(key) === true, declinedInThisWindow: this.declined.has(key), mayAsk: o.mayAsk });
    if (decision !== 'ask') return decision;
    const p = consentPrompt(m);
    const yes = await this.deps.prompts.confirm(p.message, { detail: p.detail, confirmLabel: p.confirmLabel });
    if (yes) {
      await this.deps.globalState.update(key, true);
      this.deps.log('info', `Consent given to send questions, schemas, sample values and result rows to ${m.label}`);
      return 'use';
    }
    this.declined.add(key);
    this.deps.log('info', `Consent not given for ${m.label}: the built-in engine answers alone`);
    return 'declined';
  }

  private async ensureBridge(): Promise<ModelBridge> {
    if (this.bridge) return this.bridge;
    this.bridge = await startModelBridge({ send: vscodeModelSend(() => this.bridgedId), log: (level, message) => this.deps.log(level, message) });
    return this.bridge;
  }

  private async stopBridge(): Promise<void> {
    const b = this.bridge;
    this.bridge = undefined;
    this.bridgedId = '';
    if (b) {
      await b.close();
      this.deps.log('info', 'The language model bridge stopped');
    }
  }

  private setStatus(status: ModelStatus): void {
    this.statusValue = status;
    this.item.render(status);
    this.changed.fire(status);
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.subscriptions) d.dispose();
    void this.stopBridge();
    this.item.dispose();
    this.changed.dispose();
  }
}

function sameEndpoint(a: ModelEndpoint | undefined, b: ModelEndpoint | undefined): boolean {
  if (!a || !b) return a === b;
  return a.baseUrl === b.baseUrl && a.model === b.model && a.apiKey === b.apiKey && a.label === b.label && a.timeoutMs === b.timeoutMs;
}
