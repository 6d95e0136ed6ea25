/**
 * The invitations module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { invitationRoutes } from './routes.ts';
export { createInvitationService, type InvitationService } from './service.ts';
