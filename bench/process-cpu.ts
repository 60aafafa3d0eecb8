/**
 * CPU time of this process's descendants (the PostgreSQL and Redis servers, the sandbox process),
 * read from `/proc`: where a payment's CPU goes besides the bench's own process. Linux only; empty
 * elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` times on Linux. */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
  readonly seconds: number;
}

function processTimes(): ProcessTimes[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.flatMap((pid) => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // utime and stime, then cutime and cstime: the children it reaped (PostgreSQL's ended
      // backends), whose own entries are gone.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      return [{ pid: Number(pid), ppid: Number(fields[1]), command, seconds: ticks / TICKS_PER_SECOND }];
    } catch {
      // The process ended between the listing and the read.
      return [];
    }
  });
}

/**
 * CPU seconds (user and system) used so far by each descendant of this process and by the children
 * it reaped, summed by command (PostgreSQL's backends count as one `postgres`).
 */
export function descendantCpu(): Map<string, number> {
  const times = processTimes();
  const descendants = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { pid, ppid } of times)
      if (!descendants.has(pid) && descendants.has(ppid)) {
        descendants.add(pid);
        grew = true;
      }
  }
  const cpu = new Map<string, number>();
  for (const { pid, command, seconds } of times)
    if (pid !== process.pid && descendants.has(pid)) {
      const name = command.startsWith('postgres') ? 'postgres' : command;
      cpu.set(name, (cpu.get(name) ?? 0) + seconds);
    }
  return cpu;
}

/** CPU seconds of all descendants together. */
export function descendantCpuSeconds(): number {
  let total = 0;
  for (const seconds of descendantCpu().values()) total += seconds;
  return total;
}
