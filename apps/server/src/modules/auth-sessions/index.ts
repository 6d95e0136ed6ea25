/** The person's own sessions (issue #38): public entry (ADR 0036). */
export { authSessionRoutes } from './routes.ts';
export { type AuthSessions, createAuthSessions, publicSessionId } from './service.ts';
