import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The project's modules import each other without cycles, and layers import only downwards. A cycle
 * makes what a module sees at load time depend on which module was loaded first (an import that is still
 * undefined), and it ties modules together that should be read and changed apart. Read with the
 * TypeScript parser: every `import` and `export … from` between the project's own files, in server/src,
 * client/src, shared/src and scripts. Type-only imports are left out: they are erased, so they load nothing.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_ROOTS = ['server/src', 'client/src', 'shared/src', 'scripts'];
const SKIP_DIRS = new Set(['node_modules', 'dist']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) sourceFiles(rel, out);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const files = SOURCE_ROOTS.flatMap((dir) => sourceFiles(dir));
const fileSet = new Set(files);

/** A specifier as the bundler and Node resolve the project's own: relative, or the shared workspace's subpaths. */
function resolve(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
  else if (specifier.startsWith('@first-round/shared/')) base = `shared/src/${specifier.slice('@first-round/shared/'.length)}`;
  else return undefined;
  base = base.replace(/\.(js|mjs|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}.mts`, `${base}/index.ts`].find((candidate) => fileSet.has(candidate));
}

/** Whether an import loads its module: not `import type`, not an import of types only. */
function loads(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return !node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return true; // `import './x'`: for its effects
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  // `import { type A, type B } from` loads nothing; `import {} from` still loads the module.
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

/** The project files each file imports: every one (`types` true), or the ones it loads (static imports and re-exports; `import()` loads later, on demand). */
function importsOf(types: boolean) {
  return new Map<string, string[]>(
    files.map((file) => {
      const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
      const targets: string[] = [];
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
        const specifier = statement.moduleSpecifier;
        if (!specifier || !ts.isStringLiteral(specifier) || !(types || loads(statement))) continue;
        const target = resolve(file, specifier.text);
        if (target) targets.push(target);
      }
      return [file, targets];
    }),
  );
}
const graph = importsOf(false);

/**
 * The server's modules in layers, lowest first (docs/architecture.md, "Module layers"): a module imports only
 * modules of lower layers, types included (a type names what the module knows of). What a lower layer's
 * change means to an upper one travels on the bus (events/topic-bus.ts), never by the lower one importing it.
 */
const MODULE_LAYERS: readonly (readonly string[])[] = [
  ['users'],
  ['players'],
  ['draft'],
  ['picks'],
  ['groups'],
  ['join-links', 'standings'],
  ['leaderboard'],
  ['feed', 'push', 'share', 'seasons', 'auth'],
  ['reminders'],
];
const layerOf = new Map(MODULE_LAYERS.flatMap((modules, layer) => modules.map((m) => [m, layer] as const)));
const moduleOf = (file: string) => /^server\/src\/modules\/([^/]+)\//.exec(file)?.[1];

/** Each import from one module into another that is not in a lower layer, as `from → to`. */
function againstTheLayers(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of imports) {
    const from = moduleOf(file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = moduleOf(target);
      if (to === undefined || to === from) continue;
      const [a, b] = [layerOf.get(from), layerOf.get(to)];
      if (a === undefined || b === undefined || b >= a) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

/** Each cycle as its files, from Tarjan's strongly connected components (a file importing itself counts). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Every file `from` loads, directly or through others. */
function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    for (const target of graph.get(queue.pop()!)!) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return seen;
}

describe('the import graph', () => {
  it('reads the project (the walk and the resolution work)', () => {
    expect(graph.get('server/src/app.ts')).toContain('server/src/trpc/http.ts');
    expect(graph.get('client/src/lib/live-connection.test.ts')).toContain('client/src/lib/live-connection.ts');
    expect(graph.get('server/src/trpc/trpc.ts')).toContain('shared/src/messages.ts');
    // A type-only import loads nothing.
    expect(graph.get('server/src/trpc/context.ts')).not.toContain('server/src/deps.ts');
  });

  it('finds a cycle where there is one (the search itself works)', () => {
    const made = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e']]]);
    expect(cycles(made)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('has no cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds an import against the layers (the check itself works)', () => {
    const file = (module: string, name: string) => `server/src/modules/${module}/${name}.ts`;
    const made = new Map([
      [file('draft', 'a'), [file('players', 'b'), file('leaderboard', 'c')]],
      [file('nowhere', 'd'), [file('users', 'e')]],
    ]);
    expect(againstTheLayers(made)).toEqual([`${file('draft', 'a')} → ${file('leaderboard', 'c')}`, `${file('nowhere', 'd')} → ${file('users', 'e')}`]);
  });

  it('every module has its layer, and modules import only lower layers', () => {
    const modules = fs.readdirSync(path.join(ROOT, 'server/src/modules')).sort();
    expect(modules.filter((m) => !layerOf.has(m))).toEqual([]);
    expect(againstTheLayers(importsOf(true))).toEqual([]);
  });

  it('modules never load the root router, which loads every module', () => {
    const root = 'server/src/trpc/root.ts';
    const offenders = files.filter((f) => f.startsWith('server/src/modules/') && reachable(f).has(root));
    expect(offenders).toEqual([]);
  });

  it("the web app never loads Unicode's table of look-alikes (the server's name keys)", () => {
    const table = 'shared/src/name-keys.ts';
    const offenders = files.filter((f) => f.startsWith('client/src/') && (f === table || reachable(f).has(table)));
    expect(offenders).toEqual([]);
    expect(reachable('server/src/modules/auth/account.service.ts')).toContain(table);
  });

  it("the web app's lib never loads a component or a page", () => {
    const above = (f: string) => f.startsWith('client/src/components/') || f.startsWith('client/src/pages/');
    const offenders = files.filter((f) => f.startsWith('client/src/lib/') && [...reachable(f)].some(above)).map((f) => `${f} → ${[...reachable(f)].filter(above).join(', ')}`);
    expect(offenders).toEqual([]);
  });
});
