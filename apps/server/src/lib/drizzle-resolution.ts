import { registerHooks } from 'node:module';

/**
 * Start time (issue #20 item 5): importing drizzle-orm took ~0.5 s of the server's ~1.9 s start. For every one of the
 * ~200 files drizzle-orm's entry points import, Node's ESM resolver looks up the package's scope to learn the file's
 * format, and reads drizzle-orm's package.json again each time: 179 KB, most of it an `exports` map of every driver.
 * Those imports are relative paths between drizzle-orm's own ES modules (its `.js` files are ESM: the package says
 * `"type": "module"`), so their URL and format are known without asking: this resolves them directly. Measured: the
 * three entry points the server imports in 0.08 s instead of 0.53–0.72 s (docs/benchmarks.md, session 23).
 */

const PACKAGE = '/node_modules/drizzle-orm/';

/** A file of drizzle-orm itself (not of a package installed inside it, nor reached by `../` out of it). */
const inPackage = (url: string) => url.slice(url.lastIndexOf('/node_modules/')).startsWith(PACKAGE);

/** The URL a relative import between drizzle-orm's ES modules resolves to, or undefined for any other import. */
export function drizzleInternalUrl(specifier: string, parentUrl: string | undefined): string | undefined {
  if (!parentUrl?.startsWith('file:') || !parentUrl.endsWith('.js') || !inPackage(parentUrl))
    return undefined;
  if (!(specifier.startsWith('./') || specifier.startsWith('../')) || !specifier.endsWith('.js'))
    return undefined;
  const url = new URL(specifier, parentUrl).href;
  return inPackage(url) ? url : undefined;
}

/** Registers the shortcut for this process's later imports (server.ts, before it imports the app). */
export function shortcutDrizzleResolution(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const url = drizzleInternalUrl(specifier, context.parentURL);
      return url ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context);
    },
  });
}
