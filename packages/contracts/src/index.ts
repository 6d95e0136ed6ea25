export * from './auth.ts';
export * from './dev-outbox.ts';
export * from './errors.ts';
export * from './initial-data.ts';
export * from './memberships.ts';
export * from './password.ts';
export * from './users.ts';
export * from './zod-messages.ts';
