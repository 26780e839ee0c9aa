import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuMsOf, machineCpuMs } from './process-cpu.js';

describe("the benches' CPU readings from /proc", () => {
  // One tick is 10 ms on each core; the machine's figure is summed over the cores.
  const slack = 20;

  it("counts this process's own work in the machine's busy time", () => {
    const own0 = cpuMsOf(process.pid)!;
    const machine0 = machineCpuMs()!;
    const start = performance.now();
    const until = start + 200;
    let spin = 0;
    while (performance.now() < until) spin += Math.sqrt(spin + 1);
    const own = cpuMsOf(process.pid)! - own0;
    const machine1 = machineCpuMs()!;
    const wall = performance.now() - start;
    const busy = machine1.busy - machine0.busy;
    const total = machine1.total - machine0.total;
    expect(spin).toBeGreaterThan(0);
    expect(own).toBeGreaterThanOrEqual(150);
    expect(busy).toBeGreaterThanOrEqual(own - slack);
    expect(total).toBeGreaterThanOrEqual(busy);
    // All of it: every core's time over the window, busy or not.
    const cores = fs.readFileSync('/proc/stat', 'utf8').split('\n').filter((line) => /^cpu\d/.test(line)).length;
    expect(total).toBeGreaterThan(cores * wall - cores * slack);
    expect(total).toBeLessThan(cores * wall + cores * slack);
  });

  it('has no reading for a process that is not there', () => {
    expect(cpuMsOf(2 ** 22 + 1)).toBeUndefined();
  });
});
