import type { Db } from '@veriform/db';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../lib/rows.ts';

/**
 * Every spelling a person may find their US number in (E.164, with spaces, national digits, the usual punctuations),
 * worked out here from the digits, not by the code under test.
 */
export function spellingsOf(e164: string): string[] {
  const national = e164.slice(2);
  const [area, exchange, line] = [national.slice(0, 3), national.slice(3, 6), national.slice(6)];
  return [
    e164,
    `+1 ${area} ${exchange} ${line}`,
    `1${national}`,
    national,
    `(${area}) ${exchange}-${line}`,
    `${area}-${exchange}-${line}`,
    `${area}.${exchange}.${line}`,
    `${area} ${exchange} ${line}`,
  ];
}

/** `needle` as an ILIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally. */
const anywhere = (needle: string) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Where the database stores any of `needles`, in any case: each table (every schema but the system's) whose rows, as
 * text, hold one (`schema.table: rows`), and each bytea column whose bytes do, read as text (`schema.table.column:
 * rows`; stored API answers). The proof that a redaction or an erasure left no copy: it searches what nobody listed.
 */
export async function whereStored(db: Db, needles: readonly string[]): Promise<string[]> {
  const patterns = sql`array[${sql.join(
    needles.map((needle) => sql`${anywhere(needle)}`),
    sql`, `,
  )}]::text[]`;
  const tables = rowsOf(
    await db.execute(sql`select table_schema as s, table_name as t from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1, 2`),
  );
  const byteColumns = rowsOf(
    await db.execute(sql`select table_schema as s, table_name as t, column_name as c from information_schema.columns
      where data_type = 'bytea' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1, 2, 3`),
  );
  const found: string[] = [];
  const count = async (label: string, text: ReturnType<typeof sql>, from: ReturnType<typeof sql>) => {
    const [row] = rowsOf(
      await db.execute(sql`select count(*) as n from ${from} where ${text} ilike any (${patterns})`),
    );
    const n = Number(row?.n ?? 0);
    if (n > 0) found.push(`${label}: ${n}`);
  };
  for (const table of tables) {
    const [s, t] = [String(table.s), String(table.t)];
    await count(`${s}.${t}`, sql`r::text`, sql`${sql.identifier(s)}.${sql.identifier(t)} r`);
  }
  for (const column of byteColumns) {
    const [s, t, c] = [String(column.s), String(column.t), String(column.c)];
    await count(
      `${s}.${t}.${c}`,
      sql`encode(${sql.identifier(c)}, 'escape')`,
      sql`${sql.identifier(s)}.${sql.identifier(t)}`,
    );
  }
  return found;
}
