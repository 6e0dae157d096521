import { readFileSync } from 'node:fs';
import { withClient } from './databases';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user and system) a process of this machine has used, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds each PostgreSQL backend of one database has used, by pid (this machine's PostgreSQL only). Unlike wall
 * time, the machine's other load barely moves it: take one reading before and one after a phase, and `cpuSince` is
 * what the phase cost the database (connections that closed during the phase are missed).
 */
export async function backendCpu(url: string): Promise<Map<number, number>> {
  const pids = await withClient(url, async (client) => {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows.map((row) => row.pid);
  });
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      seconds.set(pid, processCpuSeconds(pid));
    } catch {
      // A backend that ended between the query and the read.
    }
  }
  return seconds;
}

/** The CPU seconds backends used between two readings (a backend first seen in `after` counts from zero). */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
