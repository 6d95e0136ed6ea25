import type { DatabaseHandle } from '@veriform/db';
import { compareWithSource, describeDrift, normaliseWhitespace, readSqlSource } from '@veriform/db/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from './test-support/app.ts';

/**
 * The PL/pgSQL functions and triggers have one current source each, packages/db/sql (ADR 32). A freshly migrated
 * database must hold exactly what those files define: every function of the public schema (`pg_get_functiondef`) and
 * every trigger (`pg_get_triggerdef`), compared with whitespace normalised, none on one side only. A source file
 * edited without a migration (`npm run -w @veriform/db sql:migration -- --name <name>`) fails here. Runs on both
 * engines (engine-specific-tests.ts): PGlite, which `npm start` uses, renders the catalog itself.
 */
describe('SQL source files', () => {
  let db: DatabaseHandle;
  let result: Awaited<ReturnType<typeof compareWithSource>>;
  beforeAll(async () => {
    db = await openTestDb();
    // The test file's own copy of the migrated template: comparing replaces its functions by the files'.
    result = await compareWithSource((text) => db.executeSql(text));
  });
  afterAll(() => db.close());

  it('define exactly the functions and triggers the migrations leave, whitespace aside', () => {
    expect(describeDrift(result.drift)).toBe('');
    expect(result.drift).toEqual([]);
  });

  it('name each function after its file and each trigger file after its table', () => {
    const source = readSqlSource();
    expect([...result.database.functions.keys()].sort()).toEqual(source.functions.map((file) => file.name));
    const tables = new Set([...result.database.triggers.values()].map((trigger) => trigger.table));
    expect([...tables].sort()).toEqual(source.triggers.map((file) => file.name));
  });

  it('keep every function body as the database stores it', () => {
    // The body between the dollar quotes is stored as written: the file holds it verbatim, not only its effect.
    const source = readSqlSource();
    for (const file of source.functions) {
      const stored = result.database.functions.get(file.name)?.definition ?? '';
      const body = /AS (\$[a-z_]*\$)([\s\S]*)\1/.exec(stored)?.[2] ?? '';
      expect(body.length, file.name).toBeGreaterThan(0);
      expect(normaliseWhitespace(file.text), file.name).toContain(normaliseWhitespace(body));
    }
  });
});
