export * from './client.ts';
export * as schema from './schema.ts';
