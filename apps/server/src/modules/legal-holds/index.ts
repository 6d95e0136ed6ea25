/**
 * Legal holds (issue #37 item 2): evidence an account must keep whatever its retention policy or a data-subject request
 * says. held.ts is the one rule of what a hold reaches (`isHeld`, `heldBy`, a hold's `reachCount`), asked by the retention purge, the
 * redaction and erasure, with the lock that orders them against a hold being placed (`lockLegalHolds`); service.ts
 * places, lists and releases holds with their audit and webhook events; routes.ts is the app's Settings › Legal holds.
 */

export { type HeldVerification, heldBy, isHeld, isNumberHeld, lockLegalHolds, reachCount } from './held.ts';
export { legalHoldRoutes } from './routes.ts';
export { createLegalHolds, type LegalHolds } from './service.ts';
