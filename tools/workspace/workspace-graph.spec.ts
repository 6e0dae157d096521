/**
 * Holds the monorepo's lines: every workspace import is declared (libs resolve through pnpm links at
 * run time, so an undeclared one breaks only the built app), nothing is declared that is not imported,
 * and the boundaries of docs/architecture.md hold (email never imports forms, nothing imports an app,
 * each generated Prisma client stays inside its data-access lib).
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const WORKSPACE_IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)['"](@(?:shared|email|forms|apps|tools)\/[a-z-]+)['"]/g;

interface Project {
  dir: string;
  name: string;
  tags: string[];
  dependencies: string[];
  imports: Map<string, string>; // import → first file using it
}

function sourceFiles(dir: string, includeTests: boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full, includeTests);
    if (!full.endsWith('.ts')) return [];
    if (!includeTests && /\.(spec|int-spec|e2e-spec|fixture)\.ts$/.test(full)) return [];
    return [full];
  });
}

function projects(): Project[] {
  const dirs = ['apps', 'libs', 'libs/email', 'libs/forms', 'tools', '.']
    .flatMap((parent) => (parent === '.' ? ['bench'] : readdirSync(path.join(root, parent)).map((d) => path.join(parent, d))))
    .filter((dir) => existsSync(path.join(root, dir, 'package.json')) && existsSync(path.join(root, dir, 'src')));
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const imports = new Map<string, string>();
    for (const file of sourceFiles(path.join(root, dir, 'src'), false)) {
      for (const match of readFileSync(file, 'utf8').matchAll(WORKSPACE_IMPORT)) {
        if (!imports.has(match[1])) imports.set(match[1], path.relative(root, file));
      }
    }
    return { dir, name: pkg.name, tags: pkg.nx?.tags ?? [], dependencies: Object.keys(pkg.dependencies ?? {}), imports };
  });
}

const all = projects();
const byName = new Map(all.map((p) => [p.name, p]));
const scopeOf = (p: Project) => p.tags.find((t) => t.startsWith('scope:'))?.slice(6);
const typeOf = (p: Project) => p.tags.find((t) => t.startsWith('type:'))?.slice(5);

describe('workspace graph', () => {
  it('finds the projects', () => {
    expect(all.length).toBeGreaterThan(15);
    for (const p of all) expect(p.tags).toEqual(expect.arrayContaining([expect.stringMatching(/^scope:/), expect.stringMatching(/^type:/)]));
  });

  it.each(all.map((p) => [p.name, p] as const))('%s declares exactly the workspace packages it imports', (_, project) => {
    const imported = [...project.imports.keys()].filter((name) => name !== project.name).sort();
    const declared = project.dependencies.filter((d) => byName.has(d)).sort();
    expect({ project: project.name, missing: imported.filter((i) => !declared.includes(i)) }).toEqual({ project: project.name, missing: [] });
    expect({ project: project.name, unused: declared.filter((d) => !imported.includes(d)) }).toEqual({ project: project.name, unused: [] });
  });

  it.each(all.map((p) => [p.name, p] as const))('%s respects the module boundaries', (_, project) => {
    for (const [dependency, file] of project.imports) {
      const target = byName.get(dependency);
      if (!target || target === project) continue;
      const rule = `${project.name} (${file}) → ${dependency}`;
      expect({ rule, importsAnApp: typeOf(target) === 'app' }).toEqual({ rule, importsAnApp: false });
      if (scopeOf(project) === 'shared' && typeOf(project) !== 'app') expect({ rule, scope: scopeOf(target) }).toEqual({ rule, scope: 'shared' });
      if (scopeOf(project) === 'email') expect({ rule, forms: scopeOf(target) === 'forms' }).toEqual({ rule, forms: false });
      if (scopeOf(project) === 'forms') expect({ rule, email: scopeOf(target) === 'email' }).toEqual({ rule, email: false });
    }
  });

  it('keeps each generated Prisma client inside its data-access lib', () => {
    const offenders = all
      .filter((p) => typeOf(p) !== 'data-access')
      .flatMap((p) => sourceFiles(path.join(root, p.dir, 'src'), true).filter((f) => /['"][^'"]*generated\/client['"]/.test(readFileSync(f, 'utf8'))));
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
