// The one renderer every command hands its results to. JSON and NDJSON are written here; table and
// CSV live in their own modules, loaded on first use, so `-o json` never loads chalk, cli-table3 or
// csv-stringify (the CLI is bundled with code splitting; see the "Start-up" notes in docs/design.md).
import { pickFields } from './fields.js';
import type { RenderOptions } from './render-options.js';
import { writeOut } from './write.js';

/** One API object (or a bare array, rendered like a one-page list). */
export async function renderObject(obj: unknown, opts: RenderOptions): Promise<void> {
  if (Array.isArray(obj)) {
    await renderList(onePage(obj), opts);
    return;
  }
  switch (opts.format) {
    case 'json':
      await writeOut(opts.out, `${JSON.stringify(select(obj, opts), null, 2) ?? 'null'}\n`);
      return;
    case 'ndjson':
    case 'csv':
      await renderList(onePage([obj]), opts);
      return;
    case 'table': {
      const { renderObjectTable } = await import('./table.js');
      await renderObjectTable(obj, opts);
      return;
    }
    default:
      throw new Error(`unknown output format ${JSON.stringify(opts.format)}`);
  }
}

/**
 * Streams a list page by page: each page is written before the next is pulled, so memory stays
 * flat however many pages. Returns how many items were written.
 */
export async function renderList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  switch (opts.format) {
    case 'json':
      return renderJsonList(pages, opts);
    case 'ndjson':
      return renderNdjsonList(pages, opts);
    case 'csv': {
      const { renderCsvList } = await import('./csv.js');
      return renderCsvList(pages, opts);
    }
    case 'table': {
      const { renderTableList } = await import('./table.js');
      return renderTableList(pages, opts);
    }
    default:
      throw new Error(`unknown output format ${JSON.stringify(opts.format)}`);
  }
}

function select(item: unknown, opts: RenderOptions): unknown {
  return opts.fields ? pickFields(item, opts.fields) : item;
}

async function* onePage(items: unknown[]): AsyncIterable<unknown[]> {
  yield items;
}

/**
 * Writes each page as it arrives, in one write: the text `text` gives each item (its --fields
 * kept), numbered from 0 across pages. Returns how many items were written.
 */
async function writePages(pages: AsyncIterable<unknown[]>, opts: RenderOptions, text: (item: unknown, index: number) => string): Promise<number> {
  let count = 0;
  for await (const page of pages) {
    let chunk = '';
    for (const item of page) chunk += text(select(item, opts), count++);
    await writeOut(opts.out, chunk);
  }
  return count;
}

/**
 * A JSON array written as the pages arrive; byte for byte what `JSON.stringify(allItems, null, 2)`
 * would give. If paging fails half way the closing `]` is not written: a truncated list must not
 * parse as a complete one (the exit code says what went wrong).
 */
async function renderJsonList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  const count = await writePages(pages, opts, (item, index) => {
    const text = JSON.stringify(item, null, 2) ?? 'null';
    // Indent by splitting on \n only: a /^/m regex would also break at U+2028/U+2029, which
    // JSON.stringify leaves raw inside strings.
    return `${index === 0 ? '[\n' : ',\n'}  ${text.split('\n').join('\n  ')}`;
  });
  await writeOut(opts.out, count === 0 ? '[]\n' : '\n]\n');
  return count;
}

function renderNdjsonList(pages: AsyncIterable<unknown[]>, opts: RenderOptions): Promise<number> {
  return writePages(pages, opts, (item) => `${JSON.stringify(item) ?? 'null'}\n`);
}
