/**
 * The users module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { findUserByEmail, findUserById, toUserDto, type UserRow } from './repository.ts';
export { userRoutes } from './routes.ts';
export { createUserService, type UserService } from './service.ts';
