// The layers of src/ (docs/architecture.md, "Layers"): module folders import each other without a circle and never
// import the layers above them (flows, integrations, the dashboard, the app).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Each file's relative imports (static, type-only and dynamic), resolved to files under src/. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.resolve(path.dirname(file), name).replace(/\.js$/, '.ts'));
}

/** The layer a file of src/ belongs to: `modules/<name>` for a module folder, else its top folder or file. */
function layerOf(file: string): string {
  const [top, second] = path.relative(SRC, file).split(path.sep);
  return top === 'modules' ? `modules/${second}` : top!;
}

const edges = new Map<string, Map<string, string[]>>();
for (const file of sourceFiles(SRC)) {
  for (const target of importsOf(file)) {
    const [from, to] = [layerOf(file), layerOf(target)];
    if (from === to) continue;
    const byTarget = edges.get(from) ?? new Map<string, string[]>();
    edges.set(from, byTarget.set(to, [...(byTarget.get(to) ?? []), `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`]));
  }
}

/** The module folders that reach themselves again through other module folders, each with the imports that close it. */
function moduleCircles(): string[] {
  const modules = [...edges.keys()].filter((l) => l.startsWith('modules/'));
  const next = (l: string) => [...(edges.get(l)?.keys() ?? [])].filter((t) => t.startsWith('modules/'));
  const circles: string[] = [];
  for (const start of modules) {
    const seen = new Set<string>();
    const stack: string[][] = next(start).map((t) => [start, t]);
    while (stack.length > 0) {
      const trail = stack.pop()!;
      const last = trail.at(-1)!;
      if (last === start) {
        circles.push(trail.map((l, i) => (i === 0 ? l : `${edges.get(trail[i - 1]!)!.get(l)![0]}`)).join('  ⇒  '));
        break;
      }
      if (seen.has(last)) continue;
      seen.add(last);
      for (const t of next(last)) stack.push([...trail, t]);
    }
  }
  return circles;
}

describe('the layers of src/', () => {
  it('has no import circle between module folders', () => {
    expect(edges.size).toBeGreaterThan(10);
    expect(moduleCircles()).toEqual([]);
  });

  it('lets a module folder import only modules, src/db, src/shared, src/http and the config', () => {
    const allowed = (to: string) => to.startsWith('modules/') || ['db', 'shared', 'http', 'config.ts'].includes(to);
    const upward = [...edges]
      .filter(([from]) => from.startsWith('modules/'))
      .flatMap(([, byTarget]) => [...byTarget].filter(([to]) => !allowed(to)).flatMap(([, lines]) => lines));
    expect(upward).toEqual([]);
  });

  it('lets flows import modules but not the connectors or the dashboard above them', () => {
    const byTarget = edges.get('flows') ?? new Map<string, string[]>();
    expect([...byTarget.keys()].some((to) => to.startsWith('modules/'))).toBe(true);
    expect([...byTarget].filter(([to]) => ['integrations', 'dashboard', 'app.ts', 'cli.ts'].includes(to)).flatMap(([, l]) => l)).toEqual([]);
  });

  it('keeps the shared layers below every module', () => {
    const below = ['shared', 'db'];
    const upward = below.flatMap((from) =>
      [...(edges.get(from) ?? new Map<string, string[]>())].filter(([to]) => !below.includes(to) && to !== 'config.ts').flatMap(([, l]) => l),
    );
    expect(upward).toEqual([]);
  });
});
