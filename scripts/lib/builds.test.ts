import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILDS, buildServer, isStale } from './builds.mjs';

/*
 * `npm start` and the test runners build the web app and the server only when stale: a build older than
 * any of its sources must be made again, and a fresh one must not (it would cost every start).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A repository with every source of both builds, all written `ago` seconds ago; no build yet. */
function fakeRepository(ago = 100): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-builds-'));
  dirs.push(root);
  for (const file of ['server/src/main.ts', 'server/src/app.ts', 'shared/src/scoring.ts', 'server/package.json', 'shared/package.json', 'client/src/main.tsx', 'client/index.html']) {
    write(root, file, 'x', ago);
  }
  return root;
}

/** Writes `file` under `root` and dates it (and the directories it made) `ago` seconds back. */
function write(root: string, file: string, text: string, ago: number) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  age(root, file, ago);
  for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) age(root, dir, ago);
}

function age(root: string, file: string, ago: number) {
  const at = new Date(Date.now() - ago * 1000);
  fs.utimesSync(path.join(root, file), at, at);
}

describe('a build is stale exactly when older than what it is built from', () => {
  it('is stale while missing, fresh once built after its sources', () => {
    const root = fakeRepository();
    expect(isStale(root, 'server')).toBe(true);
    expect(isStale(root, 'client')).toBe(true);
    write(root, BUILDS.server.output, 'built', 10);
    write(root, BUILDS.client.output, 'built', 10);
    expect(isStale(root, 'server')).toBe(false);
    expect(isStale(root, 'client')).toBe(false);
  });

  it("a changed server file makes the server's build stale, not the web app's", () => {
    const root = fakeRepository();
    write(root, BUILDS.server.output, 'built', 10);
    write(root, BUILDS.client.output, 'built', 10);
    write(root, 'server/src/app.ts', 'y', 5);
    expect(isStale(root, 'server')).toBe(true);
    expect(isStale(root, 'client')).toBe(false);
    write(root, BUILDS.server.output, 'built again', 1);
    expect(isStale(root, 'server')).toBe(false);
  });

  it('a changed shared file makes both stale', () => {
    const root = fakeRepository();
    write(root, BUILDS.server.output, 'built', 10);
    write(root, BUILDS.client.output, 'built', 10);
    write(root, 'shared/src/scoring.ts', 'y', 5);
    expect(isStale(root, 'server')).toBe(true);
    expect(isStale(root, 'client')).toBe(true);
  });

  it('a deleted or added source file makes it stale (its directory changed)', () => {
    const root = fakeRepository();
    write(root, BUILDS.server.output, 'built', 10);
    fs.rmSync(path.join(root, 'server/src/app.ts'));
    expect(isStale(root, 'server')).toBe(true);
  });

  it('files the server build does not read (its tests, the web app) leave it fresh', () => {
    const root = fakeRepository();
    write(root, BUILDS.server.output, 'built', 10);
    write(root, 'server/test/app.test.ts', 'y', 5);
    write(root, 'client/src/main.tsx', 'y', 5);
    expect(isStale(root, 'server')).toBe(false);
  });
});

describe('the server build', () => {
  it('reads nothing of the repository outside the sources its freshness is checked against', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-server-build-'));
    dirs.push(out);
    const { file, inputs } = await buildServer(ROOT, path.join(out, 'main.js'));
    const outside = inputs.filter((input) => !BUILDS.server.sources.some((source) => input === source || input.startsWith(`${source}/`)));
    expect(outside).toEqual([]);
    expect(inputs).toContain('server/src/main.ts');
    expect(inputs.some((input) => input.startsWith('shared/src/'))).toBe(true);
    // One file and its map, the map linked: stack traces name the TypeScript sources.
    expect(fs.readFileSync(file, 'utf8').trimEnd().endsWith('//# sourceMappingURL=main.js.map')).toBe(true);
    const map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('server/src/main.ts'))).toBe(true);
    // Packages stay imports: nothing of node_modules is in the bundle.
    expect(inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
  });
});
