/**
 * Query keys of everything that belongs to one account. They all start with `accountScope`, so switching accounts
 * can invalidate them in one call; the account id in each key keeps two accounts' data apart.
 */
export const accountScope = ['accounts'] as const;

export const accountKeys = {
  detail: (accountId: number) => [...accountScope, accountId] as const,
  /** The company info: the account with the countries codes go to (Company Info's country list). */
  companyInfo: (accountId: number) => [...accountScope, accountId, 'company-info'] as const,
  team: (accountId: number) => [...accountScope, accountId, 'memberships'] as const,
  invitations: (accountId: number) => [...accountScope, accountId, 'invitations'] as const,
};
