import { describe, expect, it } from 'vitest';
import { cpuMsOf, machineCpuMs } from './process-cpu.js';

describe("the benches' CPU readings from /proc", () => {
  // One tick is 10 ms on each core; the machine's figure is summed over the cores.
  const slack = 20;

  it("counts this process's own work in the machine's busy time", () => {
    const own0 = cpuMsOf(process.pid)!;
    const machine0 = machineCpuMs()!;
    // Work until the process's own reading has grown (a condition, not a duration: on a busy machine the
    // same spin gets less of a core), then the machine's readings must hold that work.
    let own = 0;
    let spin = 0;
    while (own < 100) {
      for (let i = 0; i < 100_000; i++) spin += Math.sqrt(spin + 1);
      own = cpuMsOf(process.pid)! - own0;
    }
    const machine1 = machineCpuMs()!;
    const busy = machine1.busy - machine0.busy;
    const total = machine1.total - machine0.total;
    expect(spin).toBeGreaterThan(0);
    expect(busy).toBeGreaterThanOrEqual(own - slack);
    expect(total).toBeGreaterThanOrEqual(busy);
  });

  it('has no reading for a process that is not there', () => {
    expect(cpuMsOf(2 ** 22 + 1)).toBeUndefined();
  });
});
