/**
 * Command-line parsing for `team-data`. Wraps node:util's parseArgs so every usage error becomes
 * one clear line (the CLI never prints a stack trace for a user mistake).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { API_VERSIONS, type ApiVersion } from '../api/options';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage:
  team-data serve [--port N] [--host 127.0.0.1] [--data-dir DIR] [--api-key KEY] [--read-root DIR]...
                  [--api-versions v1,v2] [--shared]
      Start the embedded local service; prints its base URL and key. With --shared it is the data
      folder's one service that ask, mcp and VS Code windows attach to (they start it themselves
      when needed); it stops a few minutes after its last client.
  team-data ask [FILE ...] --question TEXT [options]
      Upload FILEs as data sources, ask a question and print the streamed answer.
      --dataset ID        use (and, with FILEs, add to) this dataset
      --session ID        ask in this session (default: a new session)
      --no-stream         ask for the whole answer at once
      --json              print the service's non-stream shape ({"job_id", "blocks"} in v2,
                          {"jobId", "blocks"} in v1)
      --out DIR           where charts and tables are saved (default ./team-data-output)
      --language CODE     output language (AUTO, EN, DE, ZH-CN, ...)
      --base-url URL      hosted service (or TEAM_DATA_BASE_URL); default: embedded local service
      --api-key KEY       (or TEAM_DATA_API_KEY)
      --user-id ID        (or TEAM_DATA_USER_ID)
      --data-dir DIR      data folder of the embedded service (or TEAM_DATA_DATA_DIR)
      --api-version V     v2 (default, the service's current API) or v1 (or TEAM_DATA_API_VERSION)
      --read-root DIR     (serve, repeatable) files under DIR may be read in place (no copy)
  team-data mcp [options]
      Serve the analysis tools to MCP clients over stdio (analyze files, ask a dataset,
      list datasets); on the embedded local service unless --base-url is given.
      --base-url URL, --api-key KEY, --user-id ID, --data-dir DIR, --api-version V   as for ask
  team-data convert FILE --out FILE.csv
      Convert a Parquet, JSON Lines or gzip-compressed file to CSV with DuckDB (for services
      that accept only CSV); prints progress as JSON lines.
  team-data --version | --help`;

export interface ServeArgs {
  command: 'serve';
  port: number;
  host: string;
  dataDir?: string;
  apiKey?: string;
  /** Folders whose files may become data sources read in place (`--read-root`, repeatable). */
  readRoots: string[];
  /** The API versions served (`--api-versions v2` behaves like a service that dropped v1). */
  apiVersions?: ApiVersion[];
  /** Run as the data folder's one shared service (clients attach through its discovery file). */
  shared: boolean;
}

export interface AskArgs {
  command: 'ask';
  files: string[];
  question: string;
  dataset?: string;
  session?: string;
  stream: boolean;
  json: boolean;
  out: string;
  language?: string;
  baseUrl?: string;
  apiKey?: string;
  userId?: string;
  dataDir?: string;
  apiVersion: ApiVersion;
}

/** `team-data mcp`: where the tools run (the same settings and environment as `ask`). */
export interface McpArgs {
  command: 'mcp';
  apiVersion: ApiVersion;
  baseUrl?: string;
  apiKey?: string;
  userId?: string;
  dataDir?: string;
}

/** `team-data convert`: one file to CSV (the extension runs it for hosted services). */
export interface ConvertArgs {
  command: 'convert';
  input: string;
  out: string;
}

export type CliArgs = ServeArgs | AskArgs | McpArgs | ConvertArgs | { command: 'help' } | { command: 'version' };

type Options = NonNullable<ParseArgsConfig['options']>;

function parse<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/^.*?: /, '') : String(err));
  }
}

/**
 * The API version to speak: v2 unless told otherwise. The embedded service speaks both, and v2 is
 * the hosted service's current API (v1 is deprecated there).
 */
function apiVersionOf(flag: unknown, env: NodeJS.ProcessEnv): ApiVersion {
  const raw = typeof flag === 'string' && flag !== '' ? flag : env['TEAM_DATA_API_VERSION'];
  if (raw === undefined || raw === '') return 'v2';
  const v = raw.trim().toLowerCase();
  if (!(API_VERSIONS as readonly string[]).includes(v)) throw new UsageError(`--api-version must be ${API_VERSIONS.join(' or ')} (got "${raw}")`);
  return v as ApiVersion;
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'serve') {
    const { values, positionals } = parse(rest, {
      port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, 'api-key': { type: 'string' },
      'read-root': { type: 'string', multiple: true }, 'api-versions': { type: 'string' }, shared: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got ${positionals[0]})`);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a number from 0 to 65535');
    // Only the command line names read roots (no environment variable): whoever starts the service
    // decides which folders it may read in place, never a caller of its API.
    const readRoots = (values['read-root'] ?? []).filter((r): r is string => typeof r === 'string' && r !== '');
    const out: ServeArgs = { command: 'serve', port, host: typeof values.host === 'string' ? values.host : '127.0.0.1', readRoots, shared: values.shared === true };
    const dataDir = values['data-dir'] ?? env['TEAM_DATA_DATA_DIR'];
    if (typeof dataDir === 'string') out.dataDir = dataDir;
    const apiKey = values['api-key'] ?? env['TEAM_DATA_LOCAL_API_KEY'];
    if (typeof apiKey === 'string') out.apiKey = apiKey;
    if (typeof values['api-versions'] === 'string') {
      const versions = values['api-versions'].split(',').map((v) => v.trim());
      if (versions.length === 0 || !versions.every((v): v is ApiVersion => v === 'v1' || v === 'v2')) throw new UsageError('--api-versions takes v1, v2 or v1,v2');
      out.apiVersions = versions;
    }
    return out;
  }
  if (command === 'ask') {
    const { values, positionals } = parse(rest, {
      question: { type: 'string', short: 'q' }, dataset: { type: 'string' }, session: { type: 'string' },
      'no-stream': { type: 'boolean' }, json: { type: 'boolean' }, out: { type: 'string' },
      language: { type: 'string' }, 'base-url': { type: 'string' }, 'api-key': { type: 'string' },
      'user-id': { type: 'string' }, 'data-dir': { type: 'string' }, 'api-version': { type: 'string' },
    });
    const question = values.question;
    if (typeof question !== 'string' || question.trim() === '') throw new UsageError('ask needs --question "..."');
    const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
    const out: AskArgs = {
      command: 'ask', files: positionals, question, stream: values['no-stream'] !== true, json: values.json === true,
      out: str(values.out) ?? 'team-data-output', apiVersion: apiVersionOf(values['api-version'], env),
    };
    const set = <K extends keyof AskArgs>(k: K, v: AskArgs[K] | undefined): void => {
      if (v !== undefined) out[k] = v;
    };
    set('dataset', str(values.dataset));
    set('session', str(values.session));
    set('language', str(values.language)?.toUpperCase());
    set('baseUrl', str(values['base-url']) ?? str(env['TEAM_DATA_BASE_URL']));
    set('apiKey', str(values['api-key']) ?? str(env['TEAM_DATA_API_KEY']));
    set('userId', str(values['user-id']) ?? str(env['TEAM_DATA_USER_ID']));
    set('dataDir', str(values['data-dir']) ?? str(env['TEAM_DATA_DATA_DIR']));
    if (out.baseUrl !== undefined && out.apiKey === undefined) {
      throw new UsageError('--base-url needs an API key: pass --api-key or set TEAM_DATA_API_KEY');
    }
    return out;
  }
  if (command === 'mcp') {
    const { values, positionals } = parse(rest, {
      'base-url': { type: 'string' }, 'api-key': { type: 'string' }, 'user-id': { type: 'string' }, 'data-dir': { type: 'string' },
      'api-version': { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got ${positionals[0]})`);
    const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
    const out: McpArgs = { command: 'mcp', apiVersion: apiVersionOf(values['api-version'], env) };
    const baseUrl = str(values['base-url']) ?? str(env['TEAM_DATA_BASE_URL']);
    const apiKey = str(values['api-key']) ?? str(env['TEAM_DATA_API_KEY']);
    const userId = str(values['user-id']) ?? str(env['TEAM_DATA_USER_ID']);
    const dataDir = str(values['data-dir']) ?? str(env['TEAM_DATA_DATA_DIR']);
    if (baseUrl !== undefined) out.baseUrl = baseUrl;
    if (apiKey !== undefined) out.apiKey = apiKey;
    if (userId !== undefined) out.userId = userId;
    if (dataDir !== undefined) out.dataDir = dataDir;
    if (out.baseUrl !== undefined && out.apiKey === undefined) {
      throw new UsageError('--base-url needs an API key: pass --api-key or set TEAM_DATA_API_KEY');
    }
    return out;
  }
  if (command === 'convert') {
    const { values, positionals } = parse(rest, { out: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('convert takes one file');
    if (typeof values.out !== 'string' || values.out === '') throw new UsageError('convert needs --out FILE.csv');
    return { command: 'convert', input: positionals[0] as string, out: values.out };
  }
  throw new UsageError(`unknown command "${command}"`);
}
