import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One way to announce a change: `publish` of the topic bus (server/src/events/topic-bus.ts), inside the
 * write's transaction. Nothing else sends a NOTIFY, applies a change to this instance's caches after a
 * commit, or moves a cache's version: a second path would be a second set of rules for when a change is
 * seen (and by whom). Read from the sources: every project file but tests.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = 'server/src';
const BUS = `${SRC}/events/topic-bus.ts`;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist'].includes(entry.name)) sources(rel, out);
    } else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !/\.(test|e2e)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const files = ['server/src', 'shared/src', 'client/src', 'scripts'].flatMap((dir) => sources(dir));
const text = new Map(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
/** Code lines (comments left out) matching `pattern` in files other than the bus, as `file: line`. */
export function outsideTheBus(sourceText: ReadonlyMap<string, string>, pattern: RegExp): string[] {
  return [...sourceText]
    .filter(([file]) => file !== BUS)
    .flatMap(([file, source]) =>
      source
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
}

/** A NOTIFY in SQL: pg_notify(…) or a NOTIFY statement in a string. */
const NOTIFY = /pg_notify\s*\(|['"`]\s*notify\s+\w/i;
/** Applying something once a transaction commits, the bus's way of telling this instance. */
const AFTER_COMMIT = /\bafterCommit\b/;
/** A version moved by hand, or a cache marked stale without a message. */
const VERSION_MOVED = /\bversion\w*\s*(\+\+|\+=|=\s*[\w.]+\s*\+\s*1\b)|\.touch\(/;

describe('one bus', () => {
  it('finds a second announce path where there is one (the scan itself works)', () => {
    const second = `${SRC}/cache/invalidation.ts`;
    const made = new Map([
      [second, "  await sql(em, `select pg_notify($1, $2)`, [CACHE_CHANNEL, JSON.stringify(message)]);\n  afterCommit(em, () => sink.invalidate(message));"],
      ['server/src/modules/draft/draft.router.ts', '  // pg_notify( in a comment is no NOTIFY\n  if (result.ok) ctx.deps.events.touch(id);\n  this.version++;'],
      [BUS, '  await sql(em, `select pg_notify($1, $2)`, […]);'],
    ]);
    expect(outsideTheBus(made, NOTIFY)).toEqual([`${second}: await sql(em, \`select pg_notify($1, $2)\`, [CACHE_CHANNEL, JSON.stringify(message)]);`]);
    expect(outsideTheBus(made, AFTER_COMMIT)).toHaveLength(1);
    expect(outsideTheBus(made, VERSION_MOVED)).toEqual(['server/src/modules/draft/draft.router.ts: if (result.ok) ctx.deps.events.touch(id);', 'server/src/modules/draft/draft.router.ts: this.version++;']);
  });

  it('only the bus sends a NOTIFY', () => {
    expect(text.get(BUS)).toMatch(NOTIFY);
    expect(outsideTheBus(text, NOTIFY)).toEqual([]);
  });

  it('only the bus applies a change as its transaction commits', () => {
    expect(outsideTheBus(text, AFTER_COMMIT).filter((line) => !line.startsWith('server/src/db/after-commit.ts:'))).toEqual([]);
  });

  it('no module moves a version or marks caches stale by hand', () => {
    expect(outsideTheBus(text, VERSION_MOVED)).toEqual([]);
  });
});
