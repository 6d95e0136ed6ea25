export * from './client.ts';
export { CopyBinaryTextColumn, inlinedSql, type StreamTextColumn } from './copy.ts';
export * as schema from './schema.ts';
