// Counters of the game process for per-answer comparisons that do not depend on how busy the machine is:
// answers, process.nextTick calls, garbage collections (count and time by kind), CPU (process and main
// thread) and heap, appended as a JSON line every 250 ms to COUNT_FILE. Loaded into every process of a
// bench but active only in the game's (scripts/start.mjs):
//   COUNT_FILE=/tmp/counts.jsonl NODE_OPTIONS="--import ./scripts/lib/count-answers.mjs" npm run bench:reads -- --no-write
// Differences between two lines over a stretch of load divide by the answers between them (docs/benchmarks.md).
import fs from 'node:fs';
import http from 'node:http';
import v8 from 'node:v8';
import { PerformanceObserver, constants } from 'node:perf_hooks';

if ((process.argv[1] ?? '').endsWith('start.mjs') && process.env.COUNT_FILE) {
  const c = { requests: 0, ticks: 0, scav: 0, major: 0, other: 0, gcMs: 0, scavMs: 0, majorMs: 0 };
  const nextTick = process.nextTick;
  process.nextTick = function (...args) {
    c.ticks++;
    return nextTick.apply(this, args);
  };
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') c.requests++;
    return emit.call(this, event, ...args);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail?.kind;
      c.gcMs += entry.duration;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        c.scav++;
        c.scavMs += entry.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        c.major++;
        c.majorMs += entry.duration;
      } else c.other++;
    }
  }).observe({ entryTypes: ['gc'] });
  const file = process.env.COUNT_FILE;
  setInterval(() => {
    const cpu = process.cpuUsage();
    let mainMs = 0;
    try {
      const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      mainMs = (Number(stat[11]) + Number(stat[12])) * 10;
    } catch {
      // not Linux: the main thread's share is left out
    }
    const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const line = { t: Date.now(), ...c, cpuMs: (cpu.user + cpu.system) / 1000, mainMs, heapMB: v8.getHeapStatistics().used_heap_size / 2 ** 20, newMB: (newSpace?.space_size ?? 0) / 2 ** 20 };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 250).unref();
}
