/**
 * Why a shared service could not start, in words a user can act on. The service prints one line
 * `team-data: cannot start: ...` and exits at once; the client that started it reads that line
 * from the service's log and shows it (see cli/serviceAttach.ts).
 */
export const CANNOT_START = 'team-data: cannot start: ';

const where = 'choose another data folder (the VS Code setting teamData.localDataFolder, or --data-dir)';

export function startFailureText(err: unknown, dataDir: string): string {
  const e = err as NodeJS.ErrnoException;
  const message = err instanceof Error ? err.message : String(err);
  const lock = /lock is held in (.+?) \(PID (\d+)\)(?: by user (\S+?))?[.\s]/i.exec(message);
  if (lock || /in use by another process/i.test(message)) {
    const holder = lock ? ` (${lock[1]}, pid ${lock[2]}${lock[3] ? `, user ${lock[3]}` : ''})` : '';
    return `the data folder ${dataDir} is in use by another program${holder}, which is not a Team Data service this client can share. Close that program, or ${where}.`;
  }
  const path = typeof e.path === 'string' ? e.path : dataDir;
  switch (e.code) {
    case 'ENOSPC':
      return `the disk holding ${path} is full. Free some space, or ${where}.`;
    case 'EDQUOT':
      return `your disk quota is used up on ${path}. Free some space, or ${where}.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied on ${path}: this user may not write there. Fix the folder's permissions, or ${where}.`;
    case 'EROFS':
      return `${path} is on a read-only file system. ${where[0]?.toUpperCase()}${where.slice(1)}.`;
    default:
      break;
  }
  if (/No space left on device/i.test(message)) return `the disk holding ${dataDir} is full. Free some space, or ${where}.`;
  if (/Permission denied/i.test(message)) return `permission denied in ${dataDir}. Fix the folder's permissions, or ${where}.`;
  return message.split('\n')[0] ?? message;
}

/** The cause a failed start printed in the log text after `from`, if any. */
export function causeInLog(logText: string): string | undefined {
  const lines = logText.split('\n').filter((l) => l.startsWith(CANNOT_START));
  const last = lines[lines.length - 1];
  return last === undefined ? undefined : last.slice(CANNOT_START.length).trim();
}
