/**
 * The usage text of `team-data`: one section per command, so `team-data ask --help` (or `-h`, or
 * `team-data help ask`) prints just that command's usage, and `team-data --help` prints them all.
 */
import { MAX_SESSIONS } from '../shared/domain';

export const COMMANDS = ['serve', 'ask', 'mcp', 'sessions', 'datasets', 'service', 'convert'] as const;
export type CommandName = (typeof COMMANDS)[number];

const CONNECTION = '--base-url URL, --api-key KEY, --user-id ID, --data-dir DIR, --api-version V   as for ask';

const SECTIONS: Record<CommandName, string> = {
  serve: `  team-data serve [--port N] [--host 127.0.0.1] [--data-dir DIR] [--api-key KEY] [--read-root DIR]... [--read-hard-links]
                  [--api-versions v1,v2] [--shared]
      Start the embedded local service; prints its base URL and key. With --shared it is the data
      folder's one service that ask, mcp and VS Code windows attach to (they start it themselves
      when needed); it stops a few minutes after its last client.
      --read-root DIR     (repeatable) files under DIR may be read in place (no copy)
      --read-hard-links   read in place files that have other hard links too; off by default, as
                          a hard link in DIR may be a file of any other folder`,
  ask: `  team-data ask [FILE ...] --question TEXT [options]
      Upload FILEs as data sources, ask a question and print the streamed answer.
      --question, -q TEXT the question
      --dataset ID        use (and, with FILEs, add to) this dataset
      --session ID        ask in this session (default: the dataset's CLI session "CLI: NAME",
                          made on first use; it keeps no earlier question as context)
      --no-stream         ask for the whole answer at once
      --json              print the service's non-stream shape ({"job_id", "blocks"} in v2,
                          {"jobId", "blocks"} in v1)
      --out DIR           where charts and tables are saved (default ./team-data-output)
      --language CODE     output language (AUTO, EN, DE, ZH-CN, ...)
      --base-url URL      hosted service (or TEAM_DATA_BASE_URL); default: embedded local service
      --api-key KEY       (or TEAM_DATA_API_KEY)
      --user-id ID        (or TEAM_DATA_USER_ID)
      --data-dir DIR      data folder of the embedded service (or TEAM_DATA_DATA_DIR)
      --api-version V     v2 (default, the service's current API) or v1 (or TEAM_DATA_API_VERSION)`,
  mcp: `  team-data mcp [--allow-dir DIR]... [options]
      Serve the analysis tools to MCP clients over stdio (analyze files, ask a dataset,
      list datasets); on the embedded local service unless --base-url is given. Files are read
      only inside the client's roots (a client without roots: the folder it starts the server
      in, unless that is / or the home folder or above it; then only --allow-dir folders),
      symlinks and ../ included.
      --allow-dir DIR     (repeatable) files under DIR may be read too, whatever the roots
      ${CONNECTION}`,
  sessions: `  team-data sessions list [--json] [options]
      The sessions, newest first: id, title, questions asked and owner, then a count on stderr
      (the service keeps at most ${MAX_SESSIONS}). --json prints them as a JSON array.
  team-data sessions delete ID [ID ...] | --oldest N | --all --yes [options]
      Delete sessions with their history: by id, the N oldest, or all of them.
      ${CONNECTION};
      on the embedded service without a user id, sessions of every user are included (the
      ${MAX_SESSIONS} count them all)`,
  datasets: `  team-data datasets list [--json] [options]
      The datasets: id, name and number of data sources. --json prints a JSON array.
  team-data datasets delete ID [ID ...] [options]
      Delete datasets with their data sources.
      ${CONNECTION}`,
  service: `  team-data service status|stop [--json] [--data-dir DIR]
      The data folder's shared local service (the one ask, mcp and VS Code windows use): status
      prints its pid, version, address and clients; stop asks it to stop as soon as no job runs
      and waits until it has (the next client starts a new one, of its own version).`,
  convert: `  team-data convert FILE --out FILE.csv
      Convert a Parquet, JSON Lines or gzip-compressed file to CSV with DuckDB (for services
      that accept only CSV); prints progress as JSON lines.`,
};

/** Every command's usage. */
export const USAGE = `Usage:
${COMMANDS.map((c) => SECTIONS[c]).join('\n')}
  team-data help COMMAND | COMMAND --help
      The usage of one command.
  team-data --version | --help`;

/** One command's usage, or every command's. */
export function usageOf(command?: CommandName): string {
  return command === undefined ? USAGE : `Usage:\n${SECTIONS[command]}`;
}
