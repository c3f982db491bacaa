/**
 * Which language model answers this window's questions (issue 26), decided from the settings
 * (`teamData.localModel*`), and the consent it needs first: the pure part, without vscode, so the
 * rules are tested in plain Node. localModel.ts applies the decision (bridge, lease, status bar).
 *
 * Consent is asked before a model is first registered, in a modal that lists exactly what leaves
 * the machine and to whom. An accept is kept per mode and model (a VS Code model's id, or an
 * endpoint's URL and model), so choosing another model asks again.
 */
export const LOCAL_MODEL_MODES = ['off', 'vscode', 'endpoint'] as const;
export type LocalModelMode = (typeof LOCAL_MODEL_MODES)[number];

export interface LocalModelSettings {
  mode: LocalModelMode;
  /** The chosen VS Code model's id; empty: none chosen yet. */
  vscodeModel: string;
  endpointUrl: string;
  endpointModel: string;
  timeoutSeconds: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 60;

/** A model as consent and the status bar know it. */
export interface ModelIdentity {
  mode: 'vscode' | 'endpoint';
  /** The VS Code model's id, or the endpoint's normalised URL and model name. */
  id: string;
  /** "GPT-4o (Copilot, via VS Code)", "llama3 at 127.0.0.1:11434". */
  label: string;
}

/** A usable endpoint base URL (http or https, no user or password in it), or why not. */
export function checkEndpointUrl(raw: string): { ok: true; url: string; host: string } | { ok: false; why: string } {
  const text = raw.trim();
  if (text === '') return { ok: false, why: 'no endpoint URL is set (teamData.localModelEndpointUrl)' };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, why: 'teamData.localModelEndpointUrl is not a URL (e.g. http://127.0.0.1:11434/v1)' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, why: 'teamData.localModelEndpointUrl must start with http:// or https://' };
  if (u.username !== '' || u.password !== '') return { ok: false, why: 'teamData.localModelEndpointUrl must not hold a user or password: use "Team Data: Set Model Endpoint Key…"' };
  return { ok: true, url: text.replace(/\/+$/, ''), host: u.host };
}

/** The vendor as people write it ("copilot" → "Copilot"). */
function vendorName(vendor: string): string {
  const v = vendor.trim();
  return v === '' ? 'VS Code' : v.charAt(0).toUpperCase() + v.slice(1);
}

export function vscodeModelLabel(name: string, vendor: string): string {
  return `${name.trim() || 'language model'} (${vendorName(vendor)}, via VS Code)`;
}

export function endpointModelLabel(model: string, host: string): string {
  return `${model.trim()} at ${host}`;
}

export function endpointIdentity(s: Pick<LocalModelSettings, 'endpointUrl' | 'endpointModel'>): ModelIdentity | { why: string } {
  const url = checkEndpointUrl(s.endpointUrl);
  if (!url.ok) return { why: url.why };
  const model = s.endpointModel.trim();
  if (model === '') return { why: 'no model name is set (teamData.localModelEndpointModel, e.g. llama3)' };
  return { mode: 'endpoint', id: `${url.url}#${model}`, label: endpointModelLabel(model, url.host) };
}

export function vscodeIdentity(m: { id: string; name: string; vendor: string }): ModelIdentity {
  return { mode: 'vscode', id: m.id, label: vscodeModelLabel(m.name, m.vendor) };
}

/** The globalState key of the consent for one model. */
export function consentKey(m: Pick<ModelIdentity, 'mode' | 'id'>): string {
  return `teamData.localModel.consent:${m.mode}:${m.id}`;
}

/** The per-request timeout the service gets, within what it accepts (1 s to 10 min). */
export function timeoutMs(seconds: number): number {
  const s = Number.isFinite(seconds) ? seconds : DEFAULT_TIMEOUT_SECONDS;
  return Math.round(Math.min(600, Math.max(5, s)) * 1000);
}

/**
 * What to do about consent for a model: `use` it (accepted before), `ask` now, or leave it off:
 * `declined` (the user said no in this window; not asked again until they choose a model
 * explicitly) or `pending` (never asked, and this change may not ask, e.g. at startup).
 */
export type ConsentDecision = 'use' | 'ask' | 'declined' | 'pending';

export function consentDecision(o: { accepted: boolean; declinedInThisWindow: boolean; mayAsk: boolean }): ConsentDecision {
  if (o.accepted) return 'use';
  if (o.declinedInThisWindow) return 'declined';
  return o.mayAsk ? 'ask' : 'pending';
}

/** The consent modal: what leaves the machine, and to whom. */
export function consentPrompt(m: ModelIdentity): { message: string; detail: string; confirmLabel: string } {
  const to = m.mode === 'vscode'
    ? `${m.label}: VS Code passes it to that model's provider, which may send it off this machine`
    : `${m.label}: the endpoint you configured`;
  return {
    message: `Let ${m.label} help answer your questions?`,
    detail: [
      'To read a question, Team Data sends the model:',
      '• the question and the session\'s last 5 questions;',
      '• the data\'s schema: file, sheet and column names, types, ranges;',
      '• sample values of columns (up to 8 per short text column) and the dataset\'s glossary words;',
      '• result rows (the first 50), only when an answer uses SQL the model wrote, for its narrative.',
      '',
      `Sent to ${to}.`,
      '',
      'The model proposes a plan; the built-in engine checks it against the data, runs it here and states its reading. Without consent the built-in engine answers alone. You can change this with "Team Data: Choose Language Model…".',
    ].join('\n'),
    confirmLabel: 'Allow',
  };
}

/** What the status bar says about the model. */
export type ModelStatus =
  | { kind: 'off' }
  | { kind: 'active'; label: string }
  | { kind: 'noConsent'; label: string; asked: boolean }
  | { kind: 'unavailable'; why: string };

export function modelStatusText(s: ModelStatus): { visible: boolean; text: string; tooltip: string; warning: boolean } {
  switch (s.kind) {
    case 'off':
      return { visible: false, text: '', tooltip: '', warning: false };
    case 'active':
      return {
        visible: true,
        text: `$(sparkle) ${s.label}`,
        tooltip: `${s.label} helps answer questions. Its answers are read through the engine's plans and checked against the data before anything runs. Click to choose another model or turn it off.`,
        warning: false,
      };
    case 'noConsent':
      return {
        visible: true,
        text: '$(circle-slash) Model off (no consent)',
        tooltip: s.asked
          ? `${s.label} is off because consent was not given; the built-in engine answers alone. Click to choose again.`
          : `${s.label} is off until you allow what it is sent; the built-in engine answers alone. Click to review and allow.`,
        warning: false,
      };
    case 'unavailable':
      return { visible: true, text: '$(warning) Model unavailable', tooltip: `No language model answers: ${s.why}. The built-in engine answers alone. Click to choose a model.`, warning: true };
  }
}

/** The SecretStorage entry of an endpoint's key: one per endpoint, so one server's key never goes to another. */
export function endpointKeyName(endpointUrl: string): string {
  const checked = checkEndpointUrl(endpointUrl);
  let norm = checked.ok ? checked.url : endpointUrl.trim();
  try {
    const u = new URL(norm);
    norm = `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: the raw text still names one entry consistently.
  }
  return `teamData.localModel.endpointKey:${norm}`;
}
