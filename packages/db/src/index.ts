export * from './client.ts';
export { inlinedSql, type StreamCsv, type StreamCsvOptions } from './copy.ts';
export * as schema from './schema.ts';
export { afterCommit, executeSqlIn, type Tx } from './transaction.ts';
