/**
 * Starts the real local service on 127.0.0.1, port 0, in a fresh temp data dir, and talks to it at
 * the wire level (plain fetch / node:http), so server tests do not depend on the client library.
 */
import { createParser } from 'eventsource-parser';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import type { AnalysisEngine, DataStore } from '../../src/server/engine';
import { ProfileEngine } from '../../src/server/profile/profileEngine';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../src/server/localService';

export const TEST_KEY = 'test-key-0123456789';
export const USER = 'user-1';

export interface WireResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when the body was not JSON). */
  json: { code: number; msg: string | null; data: unknown } | undefined;
  text: string;
}

export interface Harness {
  svc: LocalService;
  dataDir: string;
  baseUrl: string;
  /** Everything the service logged (for asserting that nothing leaked or failed). */
  logs: string[];
  /** Sends a request with the key (unless `headers` overrides it) and a JSON body if given. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<WireResponse>;
  /** Restarts the service on the same data dir (new port). */
  restart(extra?: Partial<LocalServiceOptions>): Promise<void>;
  /** Stops the service; with `keepDir` the data dir survives (for restart checks). */
  stop(keepDir?: boolean): Promise<void>;
}

export interface HarnessOptions extends Partial<LocalServiceOptions> {
  /**
   * Wraps the real profile engine (over the real DuckDB store the harness opens) to inject faults
   * or delays; the harness closes that store when the service stops.
   */
  wrapEngine?: (inner: AnalysisEngine) => AnalysisEngine;
}

async function wrappedBackends(dir: string, wrap: (inner: AnalysisEngine) => AnalysisEngine): Promise<{ store: DataStore; engine: AnalysisEngine }> {
  const store = await DuckDbStore.open(dir);
  return { store, engine: wrap(new ProfileEngine(store)) };
}

export async function startHarness(extra: HarnessOptions = {}, dataDir?: string): Promise<Harness> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'team-data-srv-')));
  const logs: string[] = [];
  const { wrapEngine, ...serviceOpts } = extra;
  let ownedStore: DataStore | undefined;
  const start = async (more: Partial<LocalServiceOptions>): Promise<LocalService> => {
    const backends: { store?: DataStore; engine?: AnalysisEngine } = wrapEngine ? await wrappedBackends(dir, wrapEngine) : {};
    ownedStore = backends.store;
    return startLocalService({
      dataDir: dir,
      apiKey: TEST_KEY,
      port: 0,
      logger: (level, msg) => {
        logs.push(`[${level}] ${msg}`);
        if (level === 'error' && process.env['TEST_SERVER_LOG']) process.stderr.write(`[server ${level}] ${msg}\n`);
      },
      ...backends,
      ...serviceOpts,
      ...more,
    });
  };
  const stopService = async (): Promise<void> => {
    await svc.close();
    await ownedStore?.close();
    ownedStore = undefined;
  };
  let svc = await start({});
  const h: Harness = {
    get svc() {
      return svc;
    },
    dataDir: dir,
    logs,
    get baseUrl() {
      return svc.baseUrl;
    },
    async call(method, path, body, headers = {}) {
      const init: RequestInit = {
        method,
        headers: { 'x-pd-api-key': TEST_KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const res = await fetch(`${svc.baseUrl}${path}`, init);
      const text = await res.text();
      let json: WireResponse['json'];
      try {
        json = JSON.parse(text) as WireResponse['json'];
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async restart(more = {}) {
      await stopService();
      svc = await start(more);
    },
    async stop(keepDir = false) {
      await stopService();
      if (!keepDir) await rm(dir, { recursive: true, force: true });
    },
  };
  return h;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request with full control of headers (fetch will not let tests forge Host). */
export function rawRequest(
  baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer,
): Promise<RawResponse> {
  const u = new URL(baseUrl);
  // GET/DELETE are not chunked by default, so an unannounced body would read as a second request.
  if (body !== undefined && headers['content-length'] === undefined) headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, setHost: headers['host'] === undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Polls until `check` returns a value (not undefined) or the attempts run out. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 600, delayMs = 50): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, delayMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Multipart body with one file part (built by hand so tests control every byte). */
export function multipart(field: string, fileName: string, contents: string | Buffer): { body: Buffer; contentType: string } {
  const boundary = `----teamdata${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, Buffer.isBuffer(contents) ? contents : Buffer.from(contents), tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface SseCapture {
  status: number;
  headers: Headers;
  /** The raw bytes of the stream as text. */
  raw: string;
  /** Events as a standard SSE parser (eventsource-parser) sees them. */
  events: Array<{ id?: string | undefined; event?: string | undefined; data: string }>;
}

/**
 * Posts a streamed job and reads the SSE response. With `stopAfter`, the client disconnects as
 * soon as that many events arrived (to test that the job still completes).
 */
export async function streamJob(baseUrl: string, body: Record<string, unknown>, stopAfter?: number): Promise<SseCapture> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/v1/team/jobs`, {
    method: 'POST',
    headers: { 'x-pd-api-key': TEST_KEY, 'content-type': 'application/json', 'x-pd-api-agent-id': 'GENERAL' },
    body: JSON.stringify({ ...body, stream: true }),
    signal: abort.signal,
  });
  const events: SseCapture['events'] = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, event: e.event, data: e.data }) });
  let raw = '';
  const decoder = new TextDecoder();
  const reader = res.body?.getReader();
  try {
    while (reader) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      raw += text;
      parser.feed(text);
      if (stopAfter !== undefined && events.length >= stopAfter) {
        abort.abort();
        break;
      }
    }
  } catch (e) {
    if (!abort.signal.aborted) throw e;
  }
  return { status: res.status, headers: res.headers, raw, events };
}

/** Uploads `text` as a file named `name`; returns its file key (no data source yet). */
export async function uploadText(baseUrl: string, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text]), name);
  const up = await fetch(`${baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form });
  return ((await up.json()) as { data: { fileKey: string } }).data.fileKey;
}

/** Creates a dataset, uploads `files` into it and waits until every source is synched. */
export async function seedDataset(h: Harness, files: Record<string, string>): Promise<{ datasetId: string; sourceIds: string[] }> {
  const d = await h.call('POST', '/v1/team/datasets', { name: `seed ${Object.keys(files).join(' ')}`, description: '' });
  const datasetId = (d.json?.data as { id: string }).id;
  const sourceIds: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const form = new FormData();
    form.append('file', new Blob([text]), name);
    const up = await fetch(`${h.baseUrl}/v1/team/file/upload-datasource?userId=${USER}`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form });
    const fileKey = ((await up.json()) as { data: { fileKey: string } }).data.fileKey;
    const c = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: name, type: 'FILE', fileKey });
    sourceIds.push((c.json?.data as { id: string }).id);
  }
  for (const id of sourceIds) {
    await eventually(async () => {
      const s = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as { status: string; error?: string };
      if (s.status === 'invalid' && s.error) throw new Error(`seed source failed: ${s.error}`);
      return s.status === 'synched' ? true : undefined;
    }, `seed source ${id}`);
  }
  return { datasetId, sourceIds };
}

export async function newSession(h: Harness, body: Record<string, unknown> = {}): Promise<string> {
  const r = await h.call('POST', '/v1/team/sessions', { userId: USER, ...body });
  return (r.json?.data as { id: string }).id;
}
