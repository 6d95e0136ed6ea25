import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../config.ts';

/**
 * The attempt has one owner (issue #34 item 1, ADR 35): `verifications`, `verification_attempts` and
 * `code_delivery_events` are written only by modules/attempts/ (and the SQL functions it calls, in packages/db/sql,
 * outside this scan). This test reads the server's source, tests and test support left out as the boundary rules
 * leave them out (.dependency-cruiser.server.cjs), and names every other file that writes them, by Drizzle
 * (`.update(verificationAttempts)`, `.insert(schema.verifications)`, an alias destructured from `schema`) or by SQL
 * text (`UPDATE verification_attempts`, `DELETE FROM ${codeDeliveryEvents}`).
 */

const SERVER_SRC = join(repoRoot, 'apps', 'server', 'src');
const OWNER = join(SERVER_SRC, 'modules', 'attempts') + sep;

/** The owned tables: Drizzle's name in `schema`, and the table's name in SQL. */
const TABLES = {
  verifications: 'verifications',
  verificationAttempts: 'verification_attempts',
  codeDeliveryEvents: 'code_delivery_events',
} as const;
const DRIZZLE_NAMES = Object.keys(TABLES);
const SQL_NAMES = Object.values(TABLES);

/** Tests and what only tests use (the boundary rules' TESTS): they set rows up as they need them. */
const isTest = (path: string): boolean => {
  const file = relative(SERVER_SRC, path).split(sep).join('/');
  return (
    /\.test(-support)?\.ts$/.test(file) ||
    /(^|\/)test-helpers\.ts$/.test(file) ||
    file.startsWith('test-support/') ||
    file.startsWith('security/')
  );
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

/** The names a file gives the owned tables: their own, and aliases (`const { verificationAttempts: a } = schema`). */
function tableNames(source: string): string[] {
  const names = new Set(DRIZZLE_NAMES);
  for (const [, inside = ''] of source.matchAll(/\{([^{}]*)\}\s*=\s*schema\b/g)) {
    for (const [, key, alias] of inside.matchAll(/\b(\w+)\s*:\s*(\w+)/g))
      if (key && alias && DRIZZLE_NAMES.includes(key)) names.add(alias);
  }
  for (const [, alias, key] of source.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*schema\.(\w+)\b/g))
    if (alias && key && DRIZZLE_NAMES.includes(key)) names.add(alias);
  return [...names];
}

/** Every write to an owned table in `source`, as written (whitespace collapsed). */
function ownedTableWrites(source: string): string[] {
  const names = tableNames(source).join('|');
  const sqlNames = SQL_NAMES.join('|');
  const shapes = [
    // Drizzle: db.update(verificationAttempts), tx.insert(schema.verifications), db.delete(alias).
    new RegExp(`\\.(?:update|insert|delete)\\(\\s*(?:schema\\.)?(?:${names})\\s*\\)`, 'g'),
    // SQL text: UPDATE verification_attempts, insert into "public"."verifications", TRUNCATE code_delivery_events.
    new RegExp(
      `\\b(?:update|insert\\s+into|delete\\s+from|merge\\s+into|truncate(?:\\s+table)?)\\s+(?:only\\s+)?(?:"?public"?\\.)?"?(?:${sqlNames})\\b`,
      'gi',
    ),
    // SQL text around Drizzle's table: sql`UPDATE ${verificationAttempts} SET …`.
    new RegExp(
      `\\b(?:update|insert\\s+into|delete\\s+from|merge\\s+into|truncate(?:\\s+table)?)\\s+(?:only\\s+)?\\$\\{\\s*(?:schema\\.)?(?:${names})\\s*\\}`,
      'gi',
    ),
  ];
  return shapes.flatMap((shape) => [...source.matchAll(shape)].map(([found]) => found.replace(/\s+/g, ' ')));
}

/** The server's source files (tests left out) with their writes to the owned tables, `path: write` each. */
function writesOutside(owner: (path: string) => boolean): string[] {
  return sourceFiles(SERVER_SRC)
    .filter((path) => !isTest(path) && !owner(path))
    .flatMap((path) =>
      ownedTableWrites(readFileSync(path, 'utf8')).map((write) => `${relative(repoRoot, path)}: ${write}`),
    );
}

describe('the attempt has one owner (ADR 35)', () => {
  it('writes verifications, verification_attempts and code_delivery_events only in modules/attempts/', () => {
    expect(writesOutside((path) => path.startsWith(OWNER))).toEqual([]);
  });

  it('finds the owner’s own writes: the scan reads what it should', () => {
    const owners = writesOutside((path) => !path.startsWith(OWNER)).map((found) => found.split(':')[0]);
    expect(new Set(owners)).toEqual(
      new Set(
        ['store.ts', 'redact.ts', 'code-delivery.ts', 'purge.ts'].map((file) =>
          relative(repoRoot, join(OWNER, file)),
        ),
      ),
    );
  });

  it('finds every shape of write it looks for, and not a read', () => {
    const writes = [
      'await tx.update(verificationAttempts).set({ sendError })',
      'await db.insert(schema.verifications).values(row)',
      'await tx.delete( codeDeliveryEvents ).where(x)',
      "const { verificationAttempts: attempts } = schema;\nawait tx.update(attempts).set({ status: 'canceled' })",
      'const table = schema.verifications;\nawait tx.delete(table)',
      "sql`UPDATE verification_attempts SET send_state = 'queued'`",
      '`insert into "public"."verifications" (id) values ($1)`',
      '`DELETE FROM code_delivery_events WHERE id = $1`',
      '`truncate table verifications`',
      `sql\`update \${verificationAttempts} set status = $1\``,
      `sql\`DELETE FROM \${schema.codeDeliveryEvents}\``,
    ];
    for (const write of writes) expect(ownedTableWrites(write), write).toHaveLength(1);
    const reads = [
      'await db.select().from(verificationAttempts).where(eq(verificationAttempts.id, id))',
      '`SELECT * FROM verification_attempts WHERE id = $1`',
      'await tx.update(verificationCertificates).set({ content: null })',
      'await tx.update(webhookEvents).set({ data })',
      'sql`UPDATE verification_certificates SET content = NULL`',
    ];
    for (const read of reads) expect(ownedTableWrites(read), read).toEqual([]);
  });
});
