import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { drizzleInternalUrl } from './drizzle-resolution.ts';

const run = promisify(execFile);
const base = pathToFileURL(dirname(createRequire(import.meta.url).resolve('drizzle-orm'))).href;

describe('drizzle-orm resolved without its package.json (start time, issue #20 item 5)', () => {
  it('resolves relative imports between drizzle-orm ES modules, and nothing else', () => {
    expect(drizzleInternalUrl('./entity.js', `${base}/index.js`)).toBe(`${base}/entity.js`);
    expect(drizzleInternalUrl('../sql/sql.js', `${base}/pg-core/table.js`)).toBe(`${base}/sql/sql.js`);
    // Bare specifiers, CommonJS files, other packages, paths out of drizzle-orm and extensionless paths: Node decides.
    expect(drizzleInternalUrl('drizzle-orm/pg-core', `${base}/index.js`)).toBeUndefined();
    expect(drizzleInternalUrl('./entity.cjs', `${base}/index.cjs`)).toBeUndefined();
    expect(drizzleInternalUrl('./x.js', 'file:///app/node_modules/zod/index.js')).toBeUndefined();
    expect(drizzleInternalUrl('../zod/index.js', `${base}/index.js`)).toBeUndefined();
    expect(drizzleInternalUrl('./x.js', `${base}/node_modules/dep/index.js`)).toBeUndefined();
    expect(drizzleInternalUrl('./entity', `${base}/index.js`)).toBeUndefined();
    expect(drizzleInternalUrl('./entity.js', undefined)).toBeUndefined();
  });

  it('a process with the shortcut loads the same drizzle-orm modules as one without', async () => {
    // Each module's URL and its exports' names, as loaded by the server's entry points.
    const script = (hook: boolean) => `
      ${hook ? `(await import(${JSON.stringify(new URL('./drizzle-resolution.ts', import.meta.url).href)})).shortcutDrizzleResolution();` : ''}
      const names = {};
      for (const entry of ['drizzle-orm', 'drizzle-orm/pg-core', 'drizzle-orm/node-postgres', 'drizzle-orm/pglite'])
        names[entry] = Object.keys(await import(entry)).sort();
      console.log(JSON.stringify(names));`;
    const load = async (hook: boolean) =>
      JSON.parse((await run(process.execPath, ['--input-type=module', '-e', script(hook)])).stdout) as Record<
        string,
        string[]
      >;
    const [plain, shortcut] = await Promise.all([load(false), load(true)]);
    expect(plain['drizzle-orm/pg-core']?.length ?? 0).toBeGreaterThan(50);
    expect(shortcut).toEqual(plain);
  });
});
