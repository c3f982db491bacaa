/**
 * The supervisor's public types: the endpoint it hands out, its states and options, and the error
 * that says why the local service cannot run (supervisor.ts does the supervising).
 */
import type { ModelEndpoint } from '../../shared/localModel';
import type { BackoffOptions } from './backoff';

export interface LocalEndpoint {
  baseUrl: string;
  apiKey: string;
}

export type SupervisorState = 'stopped' | 'starting' | 'running' | 'restarting' | 'failed';

export type SupervisorLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface SupervisorOptions {
  /** The built CLI bundle (`dist/cli.js`). */
  cliPath: string;
  /** The data folder, read at each attach (the setting, else the folder shared with the CLI). */
  dataDir: () => string;
  /** A notice for the user (the running service is of another version). */
  onNote?(message: string): void;
  /** Runs once before the first attach (the extension moves an old data folder there). */
  prepare?(): Promise<void>;
  /** This build's version: a running service of another version is used, with a note in the log. */
  version: string;
  /** The Node to run it with (default `process.execPath`, the editor's own). */
  nodePath?: string;
  /**
   * Folders whose files the service may read in place (the workspace folders), registered with
   * the window's lease; a change goes through {@link LocalServiceSupervisor.updateReadRoots}.
   */
  readRoots?: () => readonly string[];
  /**
   * Whether a service this window starts reads in place files with other hard links too
   * (`--read-hard-links`, the machine setting teamData.localService.readHardLinks), read at each start.
   */
  readHardLinks?: () => boolean;
  /**
   * The language model this window chose (teamData.localModel), registered with its lease at each
   * attach; a change goes through {@link LocalServiceSupervisor.updateModel}.
   */
  model?: () => ModelEndpoint | undefined;
  /** Base environment of the child (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Receives lines that never contain the key. */
  log(level: SupervisorLogLevel, message: string): void;
  /** Proves a fresh child answers real requests; rejects when it does not. */
  healthCheck(endpoint: LocalEndpoint, signal: AbortSignal): Promise<void>;
  /** How long a start may take (default 60 s: DuckDB's first open). */
  startTimeoutMs?: number;
  /** Backoff between attempts to attach again after the service went away. */
  backoff?: BackoffOptions;
  /** Consecutive failed attaches before giving up until the next explicit use (default 5). */
  maxConsecutiveFailures?: number;
}

/** Why the local service cannot run; `kind` lets the UI pick the right advice. */
export class LocalServiceError extends Error {
  constructor(
    readonly kind: 'native' | 'missing' | 'start' | 'stopped',
    message: string,
  ) {
    super(message);
    this.name = 'LocalServiceError';
  }
}
