/**
 * The stamp of a build's sources (scripts/build-web.mjs, scripts/build-server.mjs): the SHA-256 of every file under
 * `inputs` (paths relative to `root` and contents), but those `skipped` matches. A build whose output carries the
 * stamp of the sources as they are now is up to date (`--if-changed`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function sourcesHash(root, inputs, skipped) {
  const files = (path) => {
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path).flatMap((name) => {
      const child = join(path, name);
      return skipped.test(relative(root, child)) ? [] : files(child);
    });
  };
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}
