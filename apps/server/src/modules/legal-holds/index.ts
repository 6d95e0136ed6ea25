/**
 * Legal holds (issue #37): evidence an account must keep whatever its retention policy or a data-subject request says.
 * held.ts is the one rule of what a hold reaches (`isHeld`, `heldBy`), asked by the retention purge, the redaction and
 * erasure.
 */

export { type HeldVerification, heldBy, isHeld } from './held.ts';
