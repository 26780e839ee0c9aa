// A vitest reporter beside the usual one: at the end of a run, each test file's span (when it started and
// ended, in seconds since the run began) and its own time, longest first. It shows where a tier's time goes
// and how evenly the files shared the workers: a file that ends long after the others is the run's tail.
// `top` (in the reporter's options) bounds the list; 0 lists every file.
export default class FileTimesReporter {
  constructor(options = {}) {
    this.top = options.top ?? 0;
    this.spans = new Map();
  }

  onTestRunStart() {
    this.started = Date.now();
  }

  onTestModuleStart(testModule) {
    this.spans.set(testModule.moduleId, { start: Date.now() });
  }

  onTestModuleEnd(testModule) {
    const span = this.spans.get(testModule.moduleId);
    if (span) span.end = Date.now();
  }

  onTestRunEnd() {
    const root = process.cwd() + '/';
    const rows = [...this.spans].filter(([, s]) => s.end).map(([id, s]) => ({ file: id.replace(root, ''), start: (s.start - this.started) / 1000, end: (s.end - this.started) / 1000 }));
    if (rows.length === 0) return;
    rows.sort((a, b) => b.end - b.start - (a.end - a.start));
    const shown = this.top > 0 ? rows.slice(0, this.top) : rows;
    const lastEnd = Math.max(...rows.map((r) => r.end));
    console.log(`\nTest files by wall time${shown.length < rows.length ? ` (the ${shown.length} longest of ${rows.length})` : ''}: own time, then start → end in seconds since the run began (the last ended at ${lastEnd.toFixed(1)})`);
    for (const r of shown) console.log(`  ${(r.end - r.start).toFixed(1).padStart(6)} s  ${r.start.toFixed(1).padStart(6)} → ${r.end.toFixed(1).padStart(6)}  ${r.file}`);
  }
}
