import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Removes the run's embedded database, unless the caller chose the directory (E2E_DATA_DIR set outside). */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.startsWith(tmpdir()) && dir.includes('veriform-e2e-'))
    rmSync(dir, { recursive: true, force: true });
}
