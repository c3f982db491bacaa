/**
 * The supervisor's public types: the endpoint it hands out, its states and options, and the error
 * that says why the local service cannot run (supervisor.ts does the supervising).
 */
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
  /** Where the service keeps its data (the extension's global storage). */
  dataDir: string;
  /** The Node to run it with (default `process.execPath`, the editor's own). */
  nodePath?: string;
  /**
   * Folders whose files the service may read in place (the workspace folders), read at each start;
   * the service locks them in, so a change needs {@link LocalServiceSupervisor.restart}.
   */
  readRoots?: () => readonly string[];
  /** Base environment of the child (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Receives lines that never contain the key. */
  log(level: SupervisorLogLevel, message: string): void;
  /** Proves a fresh child answers real requests; rejects when it does not. */
  healthCheck(endpoint: LocalEndpoint, signal: AbortSignal): Promise<void>;
  /** How long a start may take until the health check passed (default 60 s: DuckDB's first open). */
  startTimeoutMs?: number;
  /** Period of the liveness check while running (default 60 s; 0 disables it). */
  healthIntervalMs?: number;
  /** Backoff between restarts after a crash. */
  backoff?: BackoffOptions;
  /** Consecutive failed starts before giving up until the next explicit use (default 5). */
  maxConsecutiveFailures?: number;
  /** A run this long counts as healthy and resets the failure count (default 60 s). */
  stableAfterMs?: number;
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
