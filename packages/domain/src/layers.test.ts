import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The domain's folders in layers, lowest first (docs/architecture.md). A folder imports its own
 * layer's folders (never in a cycle) and lower layers', never a higher layer's. The top-level
 * files count as folders of their own name (`errors.ts` is `errors`).
 */
const LAYERS: readonly (readonly string[])[] = [
  // Kernel: errors, user text, collections, typed values from text, the background workers'
  // polling loop. No database, no domain.
  ['errors', 'text', 'collections', 'values', 'polling'],
  // The languages: commands and search queries, pure functions of (text, vocabulary).
  ['commands', 'query'],
  // The database: connection, entity manager, statement runner, migrations. No entity.
  ['orm'],
  // What the database holds: the entities, their list, the built-in rows.
  ['model'],
  // Who is asking: actors, credentials, sessions, security events.
  ['auth'],
  // The reads every request or hot route pays, without entities.
  ['read-models'],
  // The features, each a use case folder on the layers below.
  [
    'roles',
    'groups',
    'projects',
    'users',
    'folders',
    'issues',
    'link-types',
    'import',
    'vcs',
    'notifications',
    'seed',
  ],
  // The package's entries: the public API and the test kit.
  ['index', 'testing'],
];

/** No package beside the contracts in the kernel and the languages: they run without a database. */
const PURE_LAYERS = 2;

type Import = { from: string; to: string; specifier: string };

/** The relative imports of a module's text, static, dynamic or re-exports alike. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );
}

/** The package imports (neither relative nor `node:`) of a module's text. */
function packageImports(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)]
    .map((m) => m[1] as string)
    .filter((name) => !name.startsWith('node:'));
}

/** The top-level folder of a path relative to `src` (`issues/search/x.ts` -> `issues`, `errors.ts` or `errors.js` -> `errors`). */
const folderOf = (path: string) => path.split('/')[0]?.replace(/\.[jt]s$/, '') ?? path;

/** Imports between different folders, from module paths (relative to `src`) and their texts. */
function folderImports(modules: ReadonlyMap<string, string>): Import[] {
  const edges: Import[] = [];
  for (const [path, text] of modules) {
    for (const specifier of relativeImports(text)) {
      const target = posix.normalize(posix.join(posix.dirname(path), specifier));
      const [from, to] = [folderOf(path), folderOf(target)];
      if (from !== to) edges.push({ from: path, to: target, specifier });
    }
  }
  return edges;
}

/** The sets of folders that reach each other (strongly connected, more than one), each sorted. */
function folderCycles(edges: readonly Import[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    const [a, b] = [folderOf(e.from), folderOf(e.to)];
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)?.add(b);
    if (!next.has(b)) next.set(b, new Set());
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** Each import from a lower layer into a higher one, as `from -> to`; folders of no layer throw. */
function upwardImports(edges: readonly Import[], layers: readonly (readonly string[])[]): string[] {
  const level = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const levelOf = (folder: string) => {
    const found = level.get(folder);
    if (found === undefined) throw new Error(`${folder} is in no layer: add it to LAYERS (layers.test.ts)`);
    return found;
  };
  return edges
    .filter((e) => levelOf(folderOf(e.from)) < levelOf(folderOf(e.to)))
    .map((e) => `${e.from} -> ${e.to}`)
    .sort();
}

const src = dirname(fileURLToPath(import.meta.url));

/** The package's modules (tests and fixtures aside), by path relative to `src`. */
function domainModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const entry of readdirSync(src, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = entry.split('\\').join('/');
    if (!path.endsWith('.ts') || path.endsWith('.test.ts') || path.includes('__fixtures__')) continue;
    modules.set(path, readFileSync(join(src, entry), 'utf8'));
  }
  return modules;
}

describe('the domain in layers', () => {
  const modules = domainModules();
  const edges = folderImports(modules);

  it('reads the imports it judges', () => {
    // The parse finds what the folders import: a broken reading would pass every check below.
    expect(modules.size).toBeGreaterThan(100);
    expect(edges).toContainEqual({
      from: 'issues/execute-command.ts',
      to: 'commands/parser.js',
      specifier: '../commands/parser.js',
    });
    expect(edges).toContainEqual({ from: 'auth/actor.ts', to: 'errors.js', specifier: '../errors.js' });
  });

  it('has no cycle between folders', () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  it('imports only downward (or within its layer)', () => {
    expect(upwardImports(edges, LAYERS)).toEqual([]);
  });

  it('keeps the kernel and the languages free of the database and of other packages', () => {
    const pure = new Set(LAYERS.slice(0, PURE_LAYERS).flat());
    const impure = [...modules]
      .filter(([path]) => pure.has(folderOf(path)))
      .flatMap(([path, text]) =>
        packageImports(text)
          .filter((name) => !name.startsWith('@trackline/contracts'))
          .map((name) => `${path} -> ${name}`),
      );
    expect(impure).toEqual([]);
  });

  it('places every folder in one layer', () => {
    const declared = LAYERS.flat();
    expect(new Set(declared).size).toBe(declared.length);
    const folders = new Set([...modules.keys()].map(folderOf));
    expect([...folders].filter((f) => !declared.includes(f)).sort()).toEqual([]);
  });
});

describe('the layer checks', () => {
  const graph = (pairs: [string, string][]) =>
    folderImports(new Map(pairs.map(([path, text]) => [path, text])));

  it('map files to their top-level folder, resolving relative specifiers', () => {
    expect(
      graph([
        ['issues/search/a.ts', "import { x } from '../../orm/em.js';\nexport * from './b.js';"],
        ['orm/em.ts', "const m = await import('../model/entities.js');"],
      ]),
    ).toEqual([
      { from: 'issues/search/a.ts', to: 'orm/em.js', specifier: '../../orm/em.js' },
      { from: 'orm/em.ts', to: 'model/entities.js', specifier: '../model/entities.js' },
    ]);
  });

  it('find a cycle through three folders, and none in a chain', () => {
    const loop = graph([
      ['a/x.ts', "import '../b/y.js';"],
      ['b/y.ts', "import type { T } from '../c/z.js';"],
      ['c/z.ts', "export { u } from '../a/x.js';"],
      ['d/w.ts', "import '../a/x.js';"],
    ]);
    expect(folderCycles(loop)).toEqual([['a', 'b', 'c']]);
    expect(folderCycles(loop.filter((e) => !e.from.startsWith('c/')))).toEqual([]);
  });

  it('report an upward import and refuse a folder of no layer', () => {
    const edges = graph([
      ['orm/em.ts', "import { User } from '../model/user.entity.js';"],
      ['model/user.entity.ts', "import type { Em } from '../orm/em.js';"],
    ]);
    expect(upwardImports(edges, [['orm'], ['model']])).toEqual(['orm/em.ts -> model/user.entity.js']);
    expect(() => upwardImports(edges, [['orm']])).toThrow('model is in no layer');
  });
});
