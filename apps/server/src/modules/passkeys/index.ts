/**
 * The passkeys module's public entry (ADR 0036, issue #38): what app.ts, services.ts and other modules may use.
 * modules/mfa calls `verifyAssertionForUser` (on the service) for the sign-in's second step and step-up, and
 * `clearEnrolmentWithoutFactors` when a factor goes.
 */
export { passkeyRoutes } from './routes.ts';
export {
  clearEnrolmentWithoutFactors,
  createPasskeyService,
  PASSKEY_CHALLENGE_TTL_MS,
  type PasskeyService,
  toPasskeyDto,
} from './service.ts';
