/**
 * The memberships module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { toApiMembership } from './api-object.ts';
export {
  type AccountRow,
  listMembershipsOfUser,
  type MembershipRow,
  pickCurrentMembership,
  toAccountDto,
  toMembershipDto,
} from './repository.ts';
export { membershipRoutes } from './routes.ts';
export { createMembershipService, type MembershipService } from './service.ts';
