// A step of the build (package.json's "build"), never part of a command: makes undici's bundle,
// dist/undici.cjs, from undici's public index, then saves beside it the code V8 compiles for it
// (undici-bundle.ts), under the flags the CLI sets before it loads undici, since V8 refuses a
// cache made under other flags.
//
// Two kinds of module in that bundle are replaced by stand-ins, so that loading undici does not
// load what payctl never uses: node:http2 (no-http2.ts: payctl never speaks HTTP/2, and the real
// module loads tls and crypto), and the parts of undici itself that payctl never reaches
// (undici-left-out.cts: fetch and the web classes, the mocks, the HTTP cache stores), about half
// of the index's load time.
import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tuneRuntime } from '../platform/runtime.js';
import { writeUndiciCache } from './undici-bundle.js';

/** This file runs from dist/api/ (bundled); the stand-ins are sources. */
const source = (file: string) => fileURLToPath(new URL(`../../src/api/${file}`, import.meta.url));

/** undici's modules that payctl never reaches: lib/web, lib/mock and lib/cache of its package. */
const LEFT_OUT = /[\\/]node_modules[\\/]undici[\\/]lib[\\/](web|mock|cache)[\\/]/;

/**
 * Resolves every import of a left-out module to the stand-in, counting them: none at all means
 * undici's files moved, and the build stops rather than quietly bundle them all again.
 */
function leaveOut(counted: Set<string>): Plugin {
  return {
    name: 'undici-left-out',
    setup(onBuild) {
      onBuild.onResolve({ filter: /^\.\.?\// }, ({ path: imported, resolveDir }) => {
        const target = path.resolve(resolveDir, imported);
        if (!LEFT_OUT.test(target)) return undefined;
        counted.add(target);
        return { path: source('undici-left-out.cts') };
      });
    },
  };
}

/**
 * Bundles undici's index (`entry`) into `outfile` with the stand-ins; returns how many of its
 * modules were left out, and throws when none were.
 */
export async function bundleUndici(entry: string, outfile: string): Promise<number> {
  const leftOut = new Set<string>();
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile,
    minify: true,
    logLevel: 'warning',
    alias: { 'node:http2': source('no-http2.ts') },
    plugins: [leaveOut(leftOut)],
  });
  if (leftOut.size === 0) throw new Error(`build-undici: none of undici's modules matched ${LEFT_OUT}; its layout changed, see src/api/undici-left-out.cts`);
  return leftOut.size;
}

// Run as the build step (node dist/api/build-undici.js dist/undici.cjs); imported, only exports.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [bundle] = process.argv.slice(2);
  if (!bundle) throw new Error('usage: build-undici.js <path of undici.cjs>');
  await bundleUndici(fileURLToPath(import.meta.resolve('undici')), bundle);
  tuneRuntime();
  writeUndiciCache(path.resolve(bundle));
}
