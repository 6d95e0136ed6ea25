/**
 * The contactability module's public entry (issue #35, ADR 0036): "may I contact this number now?", answered from the
 * account's verifications and revocations and the calling windows (domain/calling-windows.ts), every verdict kept.
 */
export { eraseVerdictsOf } from './erasure.ts';
export { checkReassignedNumbers, type SweepReport } from './reassignment-sweep.ts';
export { contactabilitySessionRoutes } from './routes.ts';
export { type Contactability, createContactability, judge, monthsBefore } from './service.ts';
