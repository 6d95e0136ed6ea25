import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The PL/pgSQL functions and triggers as source files (packages/db/sql/README.md, ADR 32), and their comparison with
 * what a migrated database holds. The drift test (apps/server/src/sql-source.test.ts) and the generator
 * (sql/migration.ts) both compare through `compareWithSource`, so "in step" means one thing to both.
 */

export const sqlSourceFolder = dirname(fileURLToPath(import.meta.url));

/** Runs a script of one or more statements and answers the rows of the last (DatabaseHandle.executeSql). */
export type ExecuteScript = (text: string) => Promise<{ rows: unknown[] }>;

export type SourceFile = { name: string; path: string; text: string };

export type SqlSource = {
  /** One file per function, named after it: `functions/<name>.sql`, one `CREATE OR REPLACE FUNCTION` statement. */
  functions: SourceFile[];
  /** One file per table, named after it: `triggers/<table>.sql`, its `CREATE OR REPLACE TRIGGER` statements. */
  triggers: SourceFile[];
};

function readFolder(folder: string): SourceFile[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const path = join(folder, file);
      return { name: basename(file, '.sql'), path, text: readFileSync(path, 'utf8') };
    });
}

export function readSqlSource(folder: string = sqlSourceFolder): SqlSource {
  return { functions: readFolder(join(folder, 'functions')), triggers: readFolder(join(folder, 'triggers')) };
}

export type FunctionDef = {
  name: string;
  /** `pg_get_function_identity_arguments`: what DROP FUNCTION needs, and what a signature change changes. */
  identity: string;
  result: string;
  definition: string;
};
export type TriggerDef = { name: string; table: string; definition: string };
export type Catalog = { functions: Map<string, FunctionDef>; triggers: Map<string, TriggerDef> };

/** Ours: the public schema, without functions that belong to an extension or triggers PostgreSQL made for a key. */
const FUNCTIONS_QUERY = `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS identity,
  pg_get_function_result(p.oid) AS result, pg_get_functiondef(p.oid) AS definition
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
ORDER BY p.proname, identity`;

const TRIGGERS_QUERY = `SELECT t.tgname AS name, c.relname AS "table", pg_get_triggerdef(t.oid) AS definition
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND NOT t.tgisinternal
ORDER BY c.relname, t.tgname`;

function text(row: unknown, key: string): string {
  const value = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[key] : undefined;
  if (typeof value !== 'string') throw new Error(`The catalog answered no text for ${key}`);
  return value;
}

/** What the database holds now. One function per name: an overload would make a source file ambiguous. */
export async function readCatalog(execute: ExecuteScript): Promise<Catalog> {
  const functions = new Map<string, FunctionDef>();
  for (const row of (await execute(FUNCTIONS_QUERY)).rows) {
    const name = text(row, 'name');
    if (functions.has(name)) throw new Error(`Two functions are named ${name}: give each its own name`);
    functions.set(name, {
      name,
      identity: text(row, 'identity'),
      result: text(row, 'result'),
      definition: text(row, 'definition'),
    });
  }
  const triggers = new Map<string, TriggerDef>();
  for (const row of (await execute(TRIGGERS_QUERY)).rows) {
    const trigger = {
      name: text(row, 'name'),
      table: text(row, 'table'),
      definition: text(row, 'definition'),
    };
    triggers.set(triggerKey(trigger), trigger);
  }
  return { functions, triggers };
}

export function triggerKey(trigger: { name: string; table: string }): string {
  return `${trigger.table}.${trigger.name}`;
}

/** The comparison ignores whitespace only: a re-indented source file is still in step, any other edit is not. */
export function normaliseWhitespace(definition: string): string {
  return definition.replace(/\s+/g, ' ').trim();
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Replaces every function and trigger of the database by the source files' (triggers dropped first, as they depend
 * on their functions; functions created before triggers). Only for a throwaway database: the drift test's own copy,
 * or the generator's in-memory PGlite.
 */
export async function applySqlSource(execute: ExecuteScript, source: SqlSource): Promise<void> {
  const current = await readCatalog(execute);
  for (const trigger of current.triggers.values())
    await execute(`DROP TRIGGER ${quoted(trigger.name)} ON ${quoted(trigger.table)}`);
  for (const fn of current.functions.values())
    await execute(`DROP FUNCTION ${quoted(fn.name)}(${fn.identity})`);
  for (const file of source.functions) await run(execute, file);
  for (const file of source.triggers) await run(execute, file);
}

async function run(execute: ExecuteScript, file: SourceFile): Promise<void> {
  try {
    await execute(file.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${file.path}: ${message}`);
  }
}

export type Drift = {
  kind: 'function' | 'trigger';
  /** A function's name, or a trigger's `table.name`. */
  key: string;
  /** Where it is: only in the migrated database, only in the source files, or in both but different. */
  state: 'only-in-database' | 'only-in-source' | 'different';
  database?: string;
  source?: string;
};

function compareMaps<T extends { definition: string }>(
  kind: Drift['kind'],
  database: Map<string, T>,
  source: Map<string, T>,
): Drift[] {
  const drift: Drift[] = [];
  const keys = [...new Set([...database.keys(), ...source.keys()])].sort();
  for (const key of keys) {
    const inDatabase = database.get(key);
    const inSource = source.get(key);
    if (!inSource) drift.push({ kind, key, state: 'only-in-database', database: inDatabase?.definition });
    else if (!inDatabase) drift.push({ kind, key, state: 'only-in-source', source: inSource.definition });
    else if (normaliseWhitespace(inDatabase.definition) !== normaliseWhitespace(inSource.definition))
      drift.push({
        kind,
        key,
        state: 'different',
        database: inDatabase.definition,
        source: inSource.definition,
      });
  }
  return drift;
}

/**
 * Compares a migrated database with the source files: reads its functions (`pg_get_functiondef`) and triggers
 * (`pg_get_triggerdef`), replaces them by the source files' and reads again, so both sides are PostgreSQL's own
 * rendering and the files may keep comments and layout outside the bodies. Leaves the database holding the source's
 * definitions: use a throwaway copy. Answers both catalogs and every difference (none: in step).
 */
export async function compareWithSource(
  execute: ExecuteScript,
  source: SqlSource = readSqlSource(),
): Promise<{ database: Catalog; source: Catalog; drift: Drift[] }> {
  const database = await readCatalog(execute);
  await applySqlSource(execute, source);
  const fromSource = await readCatalog(execute);
  return {
    database,
    source: fromSource,
    drift: [
      ...compareMaps('function', database.functions, fromSource.functions),
      ...compareMaps('trigger', database.triggers, fromSource.triggers),
    ],
  };
}

/** One line per difference, for a test failure or the generator's summary. */
export function describeDrift(drift: Drift[]): string {
  return drift
    .map((d) => {
      const where = {
        'only-in-database': 'is in the migrated database but has no source file',
        'only-in-source': 'has a source file but no migration creates it',
        different: 'differs between its source file and the migrations',
      }[d.state];
      return `${d.kind} ${d.key} ${where}`;
    })
    .join('\n');
}
