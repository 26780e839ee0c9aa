import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs state what is true now, for their readers; history lives in git. So the long documents keep a
 * length a reader can take in, and no doc names the issue a change came from (an issue is outside the
 * repository, and says when, not what).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Most lines each document may have. */
const MAX_LINES: Record<string, number> = {
  'README.md': 150,
  'docs/architecture.md': 160,
  'docs/decisions.md': 600,
  'docs/benchmarks.md': 400,
};

/** 'issue 27', 'Issue #27', 'issues 23', '(#27)'. */
const ISSUE_NUMBER = /\bissues?\s+#?\d+|\(#\d+\)/i;

function markdownUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

const docs = ['README.md', ...markdownUnder('docs')];

/** 'issue 27', 'Issue #27', 'issues 23' in source (a board rank reads '(#35)' there, so that form is left out). */
const SOURCE_ISSUE_NUMBER = /\bissues?\s+#?\d+/i;
const SOURCE_ROOTS = ['server', 'shared', 'client/src', 'client/public', 'scripts', 'e2e', 'deploy', 'docker', '.ci'];

function sourceUnder(dir: string): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return [];
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data'].includes(entry.name) ? [] : sourceUnder(relative);
    return /\.(ts|tsx|mts|mjs|js|css|html|sh|conf)$|^run$/.test(entry.name) ? [relative] : [];
  });
}
const lineCount = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

function issueNumbers(file: string): string[] {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('the docs state the current truth', () => {
  it('finds the docs it checks', () => {
    expect(docs).toContain('docs/decisions.md');
    expect(docs).toContain('docs/benchmarks.md');
    expect(docs.length).toBeGreaterThan(8);
  });

  it.each(Object.entries(MAX_LINES))('%s has at most %i lines', (file, max) => {
    expect(lineCount(file)).toBeLessThanOrEqual(max);
  });

  it('names no issue number', () => {
    expect(docs.flatMap(issueNumbers)).toEqual([]);
  });

  it('would catch an issue number (the check is not vacuous)', () => {
    for (const line of ['Done in issue 27.', 'See Issue #27', 'the fan-out (#27)', 'issues 23 and 24']) expect(ISSUE_NUMBER.test(line)).toBe(true);
    for (const line of ['Pick 27 · SEA', 'the #27 pick', 'an issuer of 27 tokens']) expect(ISSUE_NUMBER.test(line)).toBe(false);
  });
});

describe('the code says what is true, not where it came from', () => {
  it('names no issue number in its comments or strings', () => {
    const files = SOURCE_ROOTS.flatMap(sourceUnder).filter((file) => file !== 'scripts/lib/docs-shape.test.ts');
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((line, i) => (SOURCE_ISSUE_NUMBER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
