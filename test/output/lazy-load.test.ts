// Start-up cost: chalk, cli-table3 and csv-stringify must load only when the chosen output needs
// them (the CLI is bundled with code splitting, so a static import would load them for every run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Collector, options, pagesOf, transaction } from './helpers.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('chalk', async (importOriginal) => {
  loaded.add('chalk');
  return importOriginal();
});
vi.mock('cli-table3', async (importOriginal) => {
  loaded.add('cli-table3');
  return importOriginal();
});
vi.mock('csv-stringify/sync', async (importOriginal) => {
  loaded.add('csv-stringify');
  return importOriginal();
});

describe('lazy loading', () => {
  it('loads each dependency only for the output that needs it', async () => {
    const { renderList, renderObject } = await import('../../src/output/render.js');
    await import('../../src/output/format.js');
    await import('../../src/validate/index.js');
    expect([...loaded]).toEqual([]);

    await renderObject(transaction(1), options('json', new Collector()));
    await renderList(pagesOf([transaction(1)]), options('json', new Collector()));
    await renderList(pagesOf([transaction(1)]), options('ndjson', new Collector()));
    expect([...loaded]).toEqual([]);

    await renderList(pagesOf([transaction(1)]), options('csv', new Collector()));
    expect([...loaded]).toEqual(['csv-stringify']);

    // Tables are drawn by cli-table3; chalk only when colour is on.
    await renderList(pagesOf([transaction(1)]), options('table', new Collector(), { color: false }));
    await renderObject(transaction(1), options('table', new Collector(), { color: false }));
    expect([...loaded].sort()).toEqual(['cli-table3', 'csv-stringify']);

    await renderObject(transaction(1), options('table', new Collector(), { color: true }));
    expect([...loaded].sort()).toEqual(['chalk', 'cli-table3', 'csv-stringify']);
  });
});

describe('module sources', () => {
  const roots = ['src/output', 'src/validate'].map((dir) => join(import.meta.dirname, '../..', dir));
  const files = roots.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f)));

  it('finds the modules', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((f) => [f.slice(f.indexOf('src/'))]))('%s imports heavy packages only dynamically', (file) => {
    const source = readFileSync(join(import.meta.dirname, '../..', file), 'utf8');
    const staticImports = [...source.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    for (const name of staticImports) expect(['chalk', 'cli-table3', 'csv-stringify', 'csv-stringify/sync']).not.toContain(name);
    expect(source).not.toMatch(/^\s*import\s+['"]/m);
  });
});
