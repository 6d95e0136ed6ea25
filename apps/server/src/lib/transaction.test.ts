import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterCommit, type DatabaseHandle, executeSqlIn, query, type Tx, transaction } from '@veriform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../config.ts';
import { openTestDb } from '../test-support/app.ts';
import { statementsOf } from '../test-support/statements.ts';
import { statement } from './statement.ts';

/**
 * @veriform/db's transactions and plain SQL (ADR 0034): `transaction(db, work)` owns BEGIN and COMMIT on a connection
 * of its own, `query` runs on that connection, and `afterCommit` callbacks run after the commit, never after a
 * rollback. On public driver APIs only: nothing here reaches into Drizzle.
 */

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDb();
  await handle.executeSql('CREATE TABLE vf_tx_probe (id integer PRIMARY KEY, at timestamptz)');
});
afterAll(() => handle.close());

const count = async () => {
  const { rows } = await query(handle.db, { text: 'SELECT count(*)::int AS n FROM vf_tx_probe' });
  return rows;
};

class Undo extends Error {}

describe('transaction', () => {
  it('commits the work, and runs afterCommit callbacks only once it has', async () => {
    const seen: string[] = [];
    await transaction(handle.db, async (tx) => {
      await query(tx, { text: 'INSERT INTO vf_tx_probe VALUES (1, now())' });
      afterCommit(tx, () => seen.push('committed'));
      // Another connection (PostgreSQL) or a statement after the transaction (PGlite) cannot see it yet.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['committed']);
    expect(await count()).toEqual([{ n: 1 }]);
  });

  it('rolls back when the work throws, and drops its callbacks', async () => {
    const seen: string[] = [];
    await expect(
      transaction(handle.db, async (tx) => {
        await query(tx, { text: 'INSERT INTO vf_tx_probe VALUES (2, now())' });
        afterCommit(tx, () => seen.push('committed'));
        throw new Undo();
      }),
    ).rejects.toBeInstanceOf(Undo);
    expect(seen).toEqual([]);
    expect(await count()).toEqual([{ n: 1 }]);
  });

  it('nests as a savepoint: its callbacks wait for the outer commit, and go with its own rollback', async () => {
    const seen: string[] = [];
    await transaction(handle.db, async (tx) => {
      await transaction(tx, async (inner) => {
        await query(inner, { text: 'INSERT INTO vf_tx_probe VALUES (3, now())' });
        afterCommit(inner, () => seen.push('kept'));
      });
      await expect(
        transaction(tx, async (inner) => {
          await query(inner, { text: 'INSERT INTO vf_tx_probe VALUES (4, now())' });
          afterCommit(inner, () => seen.push('dropped'));
          throw new Undo();
        }),
      ).rejects.toBeInstanceOf(Undo);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['kept']);
    expect(await count()).toEqual([{ n: 2 }]);
  });

  it('refuses afterCommit outside an open transaction', async () => {
    let done: Tx | undefined;
    await transaction(handle.db, async (tx) => {
      done = tx;
    });
    if (!done) throw new Error('no transaction');
    const closed = done;
    expect(() => afterCommit(closed, () => {})).toThrow(/not an open transaction/);
  });
});

describe('query, statement and executeSqlIn', () => {
  it('answer rows as objects with timestamps as text, inside a transaction on its own connection', async () => {
    const read = statement<{ id: number; at: string }>(
      'vf_tx_probe_read',
      'SELECT id, at FROM vf_tx_probe WHERE id = $1',
    );
    await transaction(handle.db, async (tx) => {
      await executeSqlIn(tx)('INSERT INTO vf_tx_probe VALUES ($1, $2::timestamptz)', [
        5,
        '2026-01-02T03:04:05Z',
      ]);
      const [row] = await read(tx, [5]);
      expect(row?.id).toBe(5);
      expect(typeof row?.at).toBe('string');
      expect(new Date(row?.at ?? '').toISOString()).toBe('2026-01-02T03:04:05.000Z');
      throw new Undo();
    }).catch((error: unknown) => {
      if (!(error instanceof Undo)) throw error;
    });
    expect(await read(handle.db, [5])).toEqual([]);
  });

  it('send one driver call per statement, on PostgreSQL as a named prepared statement', async () => {
    const named = statement<{ one: number }>('vf_tx_probe_one', 'SELECT $1::int AS one');
    const sent = await statementsOf(handle.db, async () => {
      expect(await named(handle.db, [1])).toEqual([{ one: 1 }]);
      expect(await named(handle.db, [2])).toEqual([{ one: 2 }]);
    });
    expect(sent).toEqual(['SELECT $1::int AS one', 'SELECT $1::int AS one']);
  });
});

describe('the app', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist') return [];
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
    });

  it("opens transactions with @veriform/db's transaction(), which afterCommit needs, not Drizzle's", () => {
    const found = [join(repoRoot, 'apps', 'server', 'src'), join(repoRoot, 'scripts')]
      .flatMap(files)
      .filter((file) => /\bdb\s*\.transaction\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(repoRoot, file));
    expect(found).toEqual([]);
  });
});
