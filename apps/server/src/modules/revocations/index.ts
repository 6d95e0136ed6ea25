/**
 * The revocations module's public entry (issue #35, ADR 0036): revocations of consent from every channel. This first
 * slice holds its rules: what a reply to a code text says (words.ts) and when a revocation must be honoured
 * (deadline.ts, over the federal business days of domain/business-days.ts). The records, routes and events follow.
 */
export { type DeadlineRule, isOverdue, revocationDeadline } from './deadline.ts';
export { normalizeReply, type ReplyReading, readReply } from './words.ts';
