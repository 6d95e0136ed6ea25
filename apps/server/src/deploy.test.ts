import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

/** The workspaces package.json names (`packages/*`, `apps/*`), as directories holding a package.json. */
function workspaces(): string[] {
  const globs = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  return globs.flatMap((glob) => {
    const parent = glob.replace(/\/\*$/, '');
    return readdirSync(join(root, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => existsSync(join(root, dir, 'package.json')));
  });
}

describe('the server image (deploy/Dockerfile)', () => {
  it('copies every workspace’s manifest before `npm ci`, which refuses a lockfile naming a workspace it cannot see', () => {
    const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
    const found = workspaces();
    expect(found).toContain('packages/sdk');
    for (const dir of found) expect(beforeInstall, dir).toContain(`COPY ${dir}/package.json ${dir}/`);
  });
});
