/**
 * Entry point of the `team-data` command. Turns every failure into one line on stderr and a
 * non-zero exit code: 2 for usage errors, 130 when interrupted, 1 otherwise. A reader of stdout
 * that stops early (`team-data ask … | head`) ends the command quietly with 0, as it asked.
 */
import { parseCli, UsageError } from './args';
import { ask } from './ask';
import { convert } from './convert';
import { datasetsCommand, sessionsCommand } from './manage';
import { mcp } from './mcp';
import { serve } from './serve';
import { serviceCommand } from './serviceCommand';
import { describeFailure } from './failure';
import { COMMANDS, usageOf } from './usage';

declare const TEAM_DATA_VERSION: string | undefined;

async function main(argv: string[]): Promise<number> {
  const env = process.env;
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nCancelling… (Ctrl+C again to quit at once)\n');
    controller.abort();
  };
  let stdoutFailure: NodeJS.ErrnoException | undefined;
  const onStdoutError = (err: NodeJS.ErrnoException): void => {
    stdoutFailure ??= err;
    controller.abort();
  };
  try {
    const args = parseCli(argv, env);
    switch (args.command) {
      case 'help':
        process.stdout.write(`${usageOf(args.topic)}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${typeof TEAM_DATA_VERSION === 'string' ? TEAM_DATA_VERSION : 'dev'}\n`);
        return 0;
      case 'serve':
        return await serve(args, env);
      case 'mcp':
        return await mcp(args, env);
      case 'convert':
        process.on('SIGINT', onSigint);
        process.on('SIGTERM', onSigint);
        return await convert(args, process.stdout, controller.signal);
      case 'ask':
        process.on('SIGINT', onSigint);
        process.stdout.on('error', onStdoutError);
        return await ask(args, { out: process.stdout, err: process.stderr, env, signal: controller.signal });
      case 'service':
        process.on('SIGINT', onSigint);
        return await serviceCommand(args, { out: process.stdout, err: process.stderr, env, signal: controller.signal });
      case 'sessions':
      case 'datasets': {
        process.on('SIGINT', onSigint);
        process.stdout.on('error', onStdoutError);
        const io = { out: process.stdout, err: process.stderr, env, signal: controller.signal };
        return await (args.command === 'sessions' ? sessionsCommand(args, io) : datasetsCommand(args, io));
      }
    }
  } catch (err) {
    if (stdoutFailure?.code === 'EPIPE') return 0;
    if (stdoutFailure) {
      process.stderr.write(`team-data: cannot write the answer to stdout: ${stdoutFailure.message}\n`);
      return 1;
    }
    if (controller.signal.aborted) {
      process.stderr.write('team-data: cancelled\n');
      return 130;
    }
    if (err instanceof UsageError) {
      const command = (COMMANDS as readonly string[]).includes(argv[0] ?? '') ? `${argv[0]} ` : '';
      process.stderr.write(`team-data: ${err.message}\nRun "team-data ${command}--help" for usage.\n`);
      return 2;
    }
    process.stderr.write(`team-data: ${describeFailure(err)}\n`);
    if (env['TEAM_DATA_DEBUG'] && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    process.stdout.off('error', onStdoutError);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`team-data: ${describeFailure(err)}\n`);
    process.exitCode = 1;
  },
);
