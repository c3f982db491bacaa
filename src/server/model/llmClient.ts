/**
 * A small client for OpenAI-compatible chat completions (Ollama, llama.cpp server, vLLM, hosted
 * APIs), over undici. Configured by TEAM_DATA_LLM_BASE_URL (e.g. http://127.0.0.1:11434/v1),
 * TEAM_DATA_LLM_MODEL and optionally TEAM_DATA_LLM_API_KEY. Every failure is an {@link LlmError}
 * whose message never contains the key.
 */
import { request } from 'undici';

export interface LlmConfig {
  /** Base URL up to (not including) `/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request; default 60 s (local models on CPUs are slow). */
  timeoutMs?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** A chat answer is text; anything bigger than this is not a sane reply. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** The model configuration from the environment, or undefined when it is absent or unusable. */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv): LlmConfig | undefined {
  const baseUrl = env['TEAM_DATA_LLM_BASE_URL']?.trim();
  const model = env['TEAM_DATA_LLM_MODEL']?.trim();
  if (!baseUrl || !model) return undefined;
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  } catch {
    return undefined;
  }
  const cfg: LlmConfig = { baseUrl, model };
  const key = env['TEAM_DATA_LLM_API_KEY'];
  if (key !== undefined && key !== '') cfg.apiKey = key;
  return cfg;
}

function endpoint(baseUrl: string): URL {
  return new URL('chat/completions', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

function scrub(text: string, cfg: LlmConfig): string {
  return cfg.apiKey ? text.split(cfg.apiKey).join('***') : text;
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** undici's own timeouts (headers, body) besides the abort signal's. */
function isTimeout(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown } | null;
  return e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT';
}

/**
 * Why a server refused, from its error body: OpenAI-compatible servers (and the VS Code bridge)
 * send `{"error":{"message":…}}`; others plain text. Short and on one line; empty when none.
 */
function errorText(body: string): string {
  let why = body;
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown } | null;
    const e = json?.error;
    const m = typeof e === 'string' ? e : typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : json?.message;
    why = typeof m === 'string' ? m : '';
  } catch {
    // Plain text (or HTML): used as it is, if it is short text.
    if (/^\s*</.test(body)) why = '';
  }
  return oneLine(why, 200);
}

async function readCapped(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) throw new LlmError('the model server sent an oversized response');
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts).toString('utf-8');
}

/** Sends a chat and returns the assistant's text. */
export async function chat(cfg: LlmConfig, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
  const timeout = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.apiKey) headers['authorization'] = `Bearer ${cfg.apiKey}`;
  let text: string;
  let status: number;
  const timer = AbortSignal.timeout(timeout);
  try {
    const res = await request(endpoint(cfg.baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: cfg.model, messages, temperature: 0, stream: false }),
      signal: AbortSignal.any([signal, timer]),
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    status = res.statusCode;
    text = await readCapped(res.body);
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof LlmError) throw err;
    // The answer says which: a model that is slow is not a server that is down.
    if (timer.aborted || isTimeout(err)) throw new LlmError(`no reply within ${seconds(timeout)}`);
    const code = (err as { code?: unknown } | null)?.code;
    const m = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : err instanceof Error ? err.message : String(err);
    throw new LlmError(scrub(`the model server could not be reached (${oneLine(m, 200)})`, cfg));
  }
  if (status !== 200) {
    const why = errorText(text);
    throw new LlmError(scrub(`the model server answered HTTP ${status}${why !== '' ? `: ${why}` : ''}`, cfg));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LlmError('the model server sent a reply that is not JSON');
  }
  const content = (json as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') throw new LlmError('the model reply has no message content');
  return content;
}
