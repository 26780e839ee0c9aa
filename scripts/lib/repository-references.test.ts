import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: every file a source or a doc names is in the repository, so a person who
 * clones it can follow every reference (and a rename that leaves a stale mention fails here).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', '.data', 'screenshots', 'coverage', 'test-results']);
const TEXT = /\.(ts|tsx|mjs|js|json|md|ya?ml|sh|html|css|sql|conf|example)$|^(Dockerfile|run)$/;
/** What a mention of a file looks like: a path with a folder, ending in one of the project's own kinds of file. */
const FILE_MENTION = /(?<![\w/.@$-])(?:\.\.?\/)*((?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|mjs|md|json|sql|csv|ya?ml|sh|conf))(?![\w/]|\.\w)/g;
/** A Markdown document named on its own ('see decisions.md'). */
const DOC_MENTION = /(?<![\w/.-])([\w-]+\.md)\b/g;
/**
 * A section of a document by its short name ('XYZ §7'): the project's own docs are named by path, so such a
 * reference points outside the repository (docs/contributing.md, "Adding a feature, end to end").
 */
const OUTSIDE = /\b[A-Z]{3,}'?s? §/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(path.join(dir, entry.name), out);
    } else {
      out.push(path.relative(ROOT, path.join(dir, entry.name)).split(path.sep).join('/'));
    }
  }
  return out;
}

const SELF = 'scripts/lib/repository-references.test.ts';
const all = walk(ROOT);
const fileSet = new Set(all);
/** The files read for mentions: text the project wrote (not the lock file, not this test's own probes). */
const files = all.filter((f) => TEXT.test(path.posix.basename(f)) && !f.endsWith('package-lock.json') && f !== SELF);
const docNames = new Set(all.filter((f) => f.endsWith('.md')).map((f) => path.posix.basename(f)));

/** A mention resolves when it is a path from the root, from the mentioning file, or the tail of a path (`trpc/http.ts`). */
function resolves(mention: string, from: string): boolean {
  const fromDir = path.posix.dirname(from);
  if (fileSet.has(mention) || fileSet.has(path.posix.normalize(path.posix.join(fromDir, mention)))) return true;
  // A mention relative to a source root (`wire/sse-route.ts` in server/src, `lib/trpc.ts` in client/src).
  return all.some((f) => f.endsWith(`/${mention}`));
}

function missingMentions(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const missing: string[] = [];
  for (const [, mention] of text.matchAll(FILE_MENTION)) {
    // Generated or per-run files, and patterns rather than names.
    if (/node_modules|(^|\/)dist\/|[*<>{}$]/.test(mention)) continue;
    if (!resolves(mention, file)) missing.push(mention);
  }
  for (const [, doc] of text.matchAll(DOC_MENTION)) if (!docNames.has(doc)) missing.push(doc);
  return missing;
}

describe('references in sources and docs', () => {
  it('finds the files it scans (the walk itself works)', () => {
    expect(fileSet.has('README.md')).toBe(true);
    expect(fileSet.has('docs/rules.md')).toBe(true);
    expect(files.length).toBeGreaterThan(200);
  });

  it('names only files that are in the repository', () => {
    const broken = files.flatMap((file) => missingMentions(file).map((m) => `${file}: ${m}`));
    expect(broken).toEqual([]);
  });

  it('never sends a reader to a document outside it', () => {
    const outside = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it('would catch a stale mention (the check is not vacuous)', () => {
    const probe = 'See docs/missing-guide.md and server/src/trpc/gone.ts, or BRIEF §7.';
    expect([...probe.matchAll(FILE_MENTION)].map((m) => m[1]).filter((m) => !resolves(m, 'README.md'))).toEqual([
      'docs/missing-guide.md',
      'server/src/trpc/gone.ts',
    ]);
    expect(OUTSIDE.test(probe)).toBe(true);
  });
});
