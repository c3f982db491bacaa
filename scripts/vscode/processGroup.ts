/**
 * Stopping a whole process group without leaving anything behind (Linux only).
 *
 * Why not just `kill(-pgid)`: PID 1 in these containers does not reap orphans, so a grandchild
 * that outlives its parent stays a zombie forever; and `kill(-pgid, 0)` still "finds" zombies.
 * So we read the group from /proc, signal the deepest processes first (their parents are alive
 * and reap them), and count only processes that are not zombies.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One live member of a process group. */
export interface GroupMember {
  pid: number;
  ppid: number;
  /** Single-letter state from /proc/PID/stat (R, S, D, Z, ...). */
  state: string;
}

/** Parses /proc/PID/stat; the command name may contain spaces and parentheses. */
function readStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between readdir and read
  }
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  if (state === undefined || !Number.isInteger(ppid) || !Number.isInteger(pgrp)) return undefined;
  return { state, ppid, pgrp };
}

/** Members of process group `pgid` that are not zombies. */
export function groupMembers(pgid: number): GroupMember[] {
  const out: GroupMember[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = readStat(pid);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z') out.push({ pid, ppid: stat.ppid, state: stat.state });
  }
  return out;
}

/** Depth of each member below the group's root, so leaves can be stopped before their parents. */
function depths(members: GroupMember[]): Map<number, number> {
  const byPid = new Map(members.map((m) => [m.pid, m]));
  const depth = new Map<number, number>();
  const depthOf = (pid: number, guard: number): number => {
    const known = depth.get(pid);
    if (known !== undefined) return known;
    const m = byPid.get(pid);
    const d = m && guard < 64 && byPid.has(m.ppid) ? depthOf(m.ppid, guard + 1) + 1 : 0;
    depth.set(pid, d);
    return d;
  };
  for (const m of members) depthOf(m.pid, 0);
  return depth;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone: that is the goal
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitGone(pids: number[], pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = new Set(groupMembers(pgid).map((m) => m.pid));
    if (!pids.some((p) => alive.has(p))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

/**
 * Stops every process in group `pgid`, deepest first: SIGTERM, then SIGKILL for those still
 * running after `graceMs`. Resolves when no non-zombie member is left (or after a final SIGKILL
 * sweep of the whole group).
 */
export async function stopProcessGroup(pgid: number, graceMs = 3000): Promise<void> {
  for (let round = 0; round < 8; round++) {
    const members = groupMembers(pgid);
    if (members.length === 0) return;
    const depth = depths(members);
    const deepest = Math.max(...members.map((m) => depth.get(m.pid) ?? 0));
    const layer = members.filter((m) => (depth.get(m.pid) ?? 0) === deepest).map((m) => m.pid);
    for (const pid of layer) signal(pid, 'SIGTERM');
    if (await waitGone(layer, pgid, graceMs)) continue;
    for (const pid of layer) signal(pid, 'SIGKILL');
    await waitGone(layer, pgid, 1000);
  }
  signal(-pgid, 'SIGKILL');
  await waitGone(groupMembers(pgid).map((m) => m.pid), pgid, 1000);
}

/**
 * Last-resort synchronous kill for `process.on('exit')`, where nothing async can run: better a
 * zombie than a server left listening after the test process died.
 */
export function killProcessGroupNow(pgid: number): void {
  signal(-pgid, 'SIGKILL');
}

/**
 * Processes (other than this one) whose environment holds exactly `entry`, e.g.
 * `TMPDIR=/tmp/tdcr-abc/tmp`. Our children inherit a unique scratch TMPDIR, so this finds the
 * ones that left the process group (chromium's crashpad handler calls setsid).
 */
export function processesWithEnv(entry: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.split('\0').includes(entry)) continue;
    const stat = readStat(Number(name));
    if (stat && stat.state !== 'Z') out.push(Number(name));
  }
  return out;
}

/** SIGTERM, then SIGKILL after `graceMs`, every process found by {@link processesWithEnv}. */
export async function stopProcessesWithEnv(entry: string, graceMs = 2000): Promise<void> {
  const first = processesWithEnv(entry);
  if (first.length === 0) return;
  for (const pid of first) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processesWithEnv(entry).length > 0 && Date.now() < deadline) await sleep(50);
  for (const pid of processesWithEnv(entry)) signal(pid, 'SIGKILL');
}
