import { can, type LegalHoldSearch, legalHoldSearchSchema, type Membership } from '@veriform/contracts';

/**
 * What the app shell needs of legal holds (the settings tabs, the route's search params), apart from api.ts, whose
 * endpoints only the page's own chunk loads; api.ts re-exports it for other features.
 */

/** Who sees Settings → Legal holds: owners and members who may search the account's data (a hold names a number). */
export function canReadLegalHolds(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'searchData');
}

/** Who places and releases holds: the owners (`manageEvidence`, as redaction). */
export function canManageLegalHolds(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'manageEvidence');
}

/** The URL's search: every bad value falls back (the contract's schema), defaults left out of the URL. */
export const validateLegalHoldSearch = (search: Record<string, unknown>): LegalHoldSearch =>
  legalHoldSearchSchema.parse(search);
export const legalHoldSearchDefaults = legalHoldSearchSchema.parse({});
