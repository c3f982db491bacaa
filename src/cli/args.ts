/**
 * Command-line parsing for `team-data`. Wraps node:util's parseArgs so every usage error becomes
 * one clear line (the CLI never prints a stack trace for a user mistake).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { API_VERSIONS, type ApiVersion } from '../api/options';
import { COMMANDS, type CommandName } from './usage';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The connection options of every command that talks to a service (see connect.ts). */
export interface ConnectionArgs {
  apiVersion: ApiVersion;
  baseUrl?: string;
  apiKey?: string;
  userId?: string;
  dataDir?: string;
}

export interface ServeArgs {
  command: 'serve';
  port: number;
  host: string;
  dataDir?: string;
  apiKey?: string;
  /** Folders whose files may become data sources read in place (`--read-root`, repeatable). */
  readRoots: string[];
  /** Read in place files that have other hard links too (`--read-hard-links`). */
  readHardLinks: boolean;
  /** The API versions served (`--api-versions v2` behaves like a service that dropped v1). */
  apiVersions?: ApiVersion[];
  /** Run as the data folder's one shared service (clients attach through its discovery file). */
  shared: boolean;
}

export interface AskArgs extends ConnectionArgs {
  command: 'ask';
  files: string[];
  question: string;
  dataset?: string;
  session?: string;
  stream: boolean;
  json: boolean;
  out: string;
  language?: string;
}

/** `team-data mcp`: where the tools run (the same settings and environment as `ask`). */
export interface McpArgs extends ConnectionArgs {
  command: 'mcp';
  /** Folders the tools may read besides the client's roots (`--allow-dir`, repeatable). */
  allowDirs: string[];
}

/** `team-data convert`: one file to CSV (the extension runs it for hosted services). */
export interface ConvertArgs {
  command: 'convert';
  input: string;
  out: string;
}

/** Which sessions `team-data sessions delete` deletes. */
export type SessionPick = { ids: string[] } | { oldest: number } | { all: true };

/** `team-data sessions list|delete`: room under the service's session limit. */
export type SessionsArgs = ConnectionArgs & { command: 'sessions' } & ({ action: 'list'; json: boolean } | { action: 'delete'; pick: SessionPick });

/** `team-data datasets list|delete`. */
export type DatasetsArgs = ConnectionArgs & { command: 'datasets' } & ({ action: 'list'; json: boolean } | { action: 'delete'; ids: string[] });

/** `team-data service status|stop`: the data folder's shared local service itself. */
export interface ServiceArgs {
  command: 'service';
  action: 'status' | 'stop';
  json: boolean;
  dataDir?: string;
}

export type CliArgs = ServeArgs | AskArgs | McpArgs | ConvertArgs | SessionsArgs | DatasetsArgs | ServiceArgs | { command: 'help'; topic?: CommandName } | { command: 'version' };

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

const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' }, 'api-key': { type: 'string' }, 'user-id': { type: 'string' }, 'data-dir': { type: 'string' },
  'api-version': { type: 'string' },
} as const;

/** The connection flags, each falling back to its environment variable. */
function connectionArgs(values: Record<string, unknown>, env: NodeJS.ProcessEnv): ConnectionArgs {
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const out: ConnectionArgs = { apiVersion: apiVersionOf(values['api-version'], env) };
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

/** `sessions ...` and `datasets ...`: an action word, then its ids and flags. */
function parseManage(command: 'sessions' | 'datasets', rest: string[], env: NodeJS.ProcessEnv): SessionsArgs | DatasetsArgs {
  const [action, ...more] = rest;
  if (action !== 'list' && action !== 'delete') {
    throw new UsageError(action === undefined ? `${command} needs list or delete` : `unknown ${command} action "${action}" (list or delete)`);
  }
  const { values, positionals } = parse(more, {
    ...CONNECTION_OPTIONS, json: { type: 'boolean' }, oldest: { type: 'string' }, all: { type: 'boolean' }, yes: { type: 'boolean' },
  });
  const conn = connectionArgs(values, env);
  const sessionFlags = [values.oldest !== undefined ? '--oldest' : '', values.all === true ? '--all' : '', values.yes === true ? '--yes' : ''].filter(Boolean);
  if (action === 'list') {
    if (positionals.length > 0) throw new UsageError(`${command} list takes no arguments (got ${positionals[0]})`);
    if (sessionFlags.length > 0) throw new UsageError(`${command} list does not take ${sessionFlags[0]}`);
    const json = values.json === true;
    return command === 'sessions' ? { ...conn, command, action, json } : { ...conn, command, action, json };
  }
  if (values.json === true) throw new UsageError(`${command} delete does not take --json`);
  if (command === 'datasets') {
    const picks = sessionFlags.filter((f) => f !== '--yes');
    if (picks.length > 0) throw new UsageError(`datasets delete does not take ${picks[0]}; name the datasets by id`);
    if (positionals.length === 0) throw new UsageError('datasets delete needs the id of at least one dataset (see "team-data datasets list")');
    return { ...conn, command, action, ids: positionals };
  }
  const ways = (positionals.length > 0 ? 1 : 0) + (values.oldest !== undefined ? 1 : 0) + (values.all === true ? 1 : 0);
  if (ways !== 1) throw new UsageError('sessions delete takes session ids, or --oldest N, or --all --yes (one of them)');
  if (values.oldest !== undefined) {
    const n = Number(values.oldest);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--oldest takes a whole number of sessions from 1 (got "${values.oldest}")`);
    return { ...conn, command, action, pick: { oldest: n } };
  }
  if (values.all === true) {
    // Every session and its history, in one go: only when the user says so twice.
    if (values.yes !== true) throw new UsageError('sessions delete --all deletes every session with its history: add --yes to confirm');
    return { ...conn, command, action, pick: { all: true } };
  }
  // --yes is only needed with --all, and harmless elsewhere (a script may always pass it).
  return { ...conn, command, action, pick: { ids: positionals } };
}

function isCommand(word: string): word is CommandName {
  return (COMMANDS as readonly string[]).includes(word);
}

/** `--help` or `-h` among a command's arguments (not after `--`, where a word is only a word). */
function asksForHelp(rest: readonly string[]): boolean {
  const end = rest.indexOf('--');
  return (end < 0 ? rest : rest.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') return { command: 'help' };
  // `team-data help ask` and `team-data ask --help` (or -h, anywhere before a `--`): that command's usage.
  if (command === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { command: 'help' };
    if (!isCommand(topic)) throw new UsageError(`unknown command "${topic}"`);
    return { command: 'help', topic };
  }
  if (isCommand(command) && asksForHelp(rest)) return { command: 'help', topic: command };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'serve') {
    const { values, positionals } = parse(rest, {
      port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, 'api-key': { type: 'string' },
      'read-root': { type: 'string', multiple: true }, 'read-hard-links': { type: 'boolean' }, 'api-versions': { type: 'string' }, shared: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got ${positionals[0]})`);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a number from 0 to 65535');
    // Only the command line names read roots (no environment variable): whoever starts the service
    // decides which folders it may read in place, never a caller of its API.
    const readRoots = (values['read-root'] ?? []).filter((r): r is string => typeof r === 'string' && r !== '');
    const out: ServeArgs = { command: 'serve', port, host: typeof values.host === 'string' ? values.host : '127.0.0.1', readRoots, readHardLinks: values['read-hard-links'] === true, shared: values.shared === true };
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
      language: { type: 'string' }, ...CONNECTION_OPTIONS,
    });
    const question = values.question;
    if (typeof question !== 'string' || question.trim() === '') throw new UsageError('ask needs --question "..."');
    const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
    const out: AskArgs = {
      command: 'ask', files: positionals, question, stream: values['no-stream'] !== true, json: values.json === true,
      out: str(values.out) ?? 'team-data-output', ...connectionArgs(values, env),
    };
    const set = <K extends keyof AskArgs>(k: K, v: AskArgs[K] | undefined): void => {
      if (v !== undefined) out[k] = v;
    };
    set('dataset', str(values.dataset));
    set('session', str(values.session));
    set('language', str(values.language)?.toUpperCase());
    return out;
  }
  if (command === 'mcp') {
    const { values, positionals } = parse(rest, { ...CONNECTION_OPTIONS, 'allow-dir': { type: 'string', multiple: true } });
    if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got ${positionals[0]})`);
    const allowDirs = (values['allow-dir'] ?? []).filter((d): d is string => typeof d === 'string' && d !== '');
    return { command: 'mcp', ...connectionArgs(values, env), allowDirs };
  }
  if (command === 'sessions' || command === 'datasets') return parseManage(command, rest, env);
  if (command === 'service') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' }, 'data-dir': { type: 'string' } });
    const [action, ...extra] = positionals;
    if (action !== 'status' && action !== 'stop') throw new UsageError('service takes status or stop');
    if (extra.length > 0) throw new UsageError(`service ${action} takes no arguments (got ${extra[0]})`);
    const out: ServiceArgs = { command: 'service', action, json: values.json === true };
    const dataDir = typeof values['data-dir'] === 'string' && values['data-dir'] !== '' ? values['data-dir'] : env['TEAM_DATA_DATA_DIR'];
    if (dataDir) out.dataDir = dataDir;
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
