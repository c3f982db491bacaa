/**
 * The language model a client of the local service has chosen for its questions (issue: use the
 * model the user already has). A VS Code window registers it with its lease: either its own
 * loopback bridge to a VS Code language model (`vscode`) or an OpenAI-compatible endpoint the user
 * configured (`endpoint`). The service reaches both with the same client; clients without one (the
 * CLI, `team-data mcp`) keep the `TEAM_DATA_LLM_*` environment variables.
 */

export interface ModelEndpoint {
  /** Base URL up to (not including) `/chat/completions`. */
  baseUrl: string;
  /** The model's name as the endpoint knows it. */
  model: string;
  /** Sent as a bearer token; never logged, echoed or shown. */
  apiKey?: string;
  /** What answers and the status bar call it ("GPT-4o (Copilot, via VS Code)"). */
  label: string;
  /** Per request; the service's default when absent. */
  timeoutMs?: number;
}

const MAX_URL = 2048;
const MAX_NAME = 200;
const MAX_KEY = 8192;

/**
 * A model registration from a request body: `null` clears it, undefined leaves it as it is, and
 * anything malformed throws an Error naming the field (never its value: it may hold a key).
 */
export function parseModelEndpoint(raw: unknown): ModelEndpoint | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('model: an object with baseUrl, model and label, or null');
  const o = raw as Record<string, unknown>;
  const baseUrl = o['baseUrl'];
  if (typeof baseUrl !== 'string' || baseUrl.length > MAX_URL) throw new Error('model.baseUrl: an http(s) URL');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error('model.baseUrl: an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('model.baseUrl: an http(s) URL');
  // A key belongs in apiKey, where it is kept out of logs; one in the URL would be shown.
  if (url.username !== '' || url.password !== '') throw new Error('model.baseUrl: no user or password in the URL (use the key setting)');
  const model = o['model'];
  if (typeof model !== 'string' || model.trim() === '' || model.length > MAX_NAME) throw new Error('model.model: the model\'s name');
  const label = o['label'];
  if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_NAME) throw new Error('model.label: a short name to show');
  const out: ModelEndpoint = { baseUrl, model: model.trim(), label: label.trim().replace(/[\r\n]+/g, ' ') };
  const key = o['apiKey'];
  if (key !== undefined && key !== null && key !== '') {
    if (typeof key !== 'string' || key.length > MAX_KEY || /[\r\n]/.test(key)) throw new Error('model.apiKey: a single-line key');
    out.apiKey = key;
  }
  const t = o['timeoutMs'];
  if (t !== undefined) {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1000 || t > 600_000) throw new Error('model.timeoutMs: 1000 to 600000');
    out.timeoutMs = t;
  }
  return out;
}
