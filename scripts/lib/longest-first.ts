import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A vitest sequencer for a run that has no timings yet (a fresh clone, CI): the files named in `first` start
 * first, in that order, then the rest as vitest orders them (larger files first). Workers take the next file
 * when they finish one, so a long file started last is a tail with one core idle: the lifecycle tests (a real
 * server and its drain) and the browser tier's longest specs ran last by size and ended minutes after the
 * rest. Once vitest has timings of every file (its cache, after a run in the same clone) it orders by them,
 * longest first, and the list is not used. The list only orders; a stale name costs time, never a check.
 */
export function longestFirst(first: string[]) {
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const { root } = this.ctx.config;
      const timed = sorted.every((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`)?.duration);
      if (timed) return sorted;
      const rank = (spec: TestSpecification) => {
        const at = first.indexOf(path.relative(root, spec.moduleId));
        return at < 0 ? first.length : at;
      };
      // Stable: files not named keep vitest's order, and each project's files stay together.
      const projects = [...new Set(sorted.map((spec) => spec.project.name))];
      return [...sorted].sort((a, b) => projects.indexOf(a.project.name) - projects.indexOf(b.project.name) || rank(a) - rank(b));
    }
  };
}
