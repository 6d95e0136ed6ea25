export * from './client.ts';
export { inlinedSql, type StreamCsv, type StreamCsvOptions } from './copy.ts';
export * as schema from './schema.ts';
export {
  afterCommit,
  executeSqlIn,
  query,
  type SqlQuery,
  type Tx,
  transaction,
} from './transaction.ts';
