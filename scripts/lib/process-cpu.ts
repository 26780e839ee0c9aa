import fs from 'node:fs';

/** USER_HZ: 100 on Linux everywhere that matters (`getconf CLK_TCK`). */
const CLOCK_TICKS = 100;

/**
 * A process's CPU time so far (user + system, ms) from /proc/<pid>/stat; undefined where there is no /proc.
 * Latencies on a shared machine move with whatever else runs; a process's own CPU per unit of work moves
 * less, and it is what a change to that process changes.
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** A process's resident memory now (VmRSS, MB) from /proc/<pid>/status; undefined where there is none. */
export function rssMbOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * The whole machine's CPU time so far, busy (every process and the kernel's own work: user, nice, system,
 * irq, softirq, steal) and in all (busy + idle + iowait), ms summed over the cores, from /proc/stat's first
 * line; undefined where there is no /proc. Beside a process's own CPU it says whether the cores were the
 * limit: a load generator shares them with the server it measures.
 */
export function machineCpuMs(): { busy: number; total: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number) as [number, number, number, number, number, number, number, number];
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: (busy * 1000) / CLOCK_TICKS, total: ((busy + idle + iowait) * 1000) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}
