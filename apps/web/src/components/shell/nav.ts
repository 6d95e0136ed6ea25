import { can, type Membership } from '@veriform/contracts';

export interface NavItem {
  label: 'Dashboard' | 'Activity Log' | 'Forms';
  to: '/dashboard/' | '/activity-log/' | '/forms/';
}

/**
 * SPEC §6 (mirrors `can()`, docs/roles.md): Dashboard for owners or members who can view reports; Activity Log for
 * owners or members who can search data; Forms for everyone (also without a membership).
 */
export function visibleNavItems(membership: Membership | null): NavItem[] {
  const items: NavItem[] = [];
  if (membership && can(membership, 'viewReports')) items.push({ label: 'Dashboard', to: '/dashboard/' });
  if (membership && can(membership, 'searchData'))
    items.push({ label: 'Activity Log', to: '/activity-log/' });
  items.push({ label: 'Forms', to: '/forms/' });
  return items;
}

/** Initials for an avatar: from the name ("Ada Lovelace" → "AL"), else the e-mail ("ada.king@x" → "AK"). */
export function initialsFor(name: string, email: string): string {
  const fromWords = (words: string[]) =>
    words
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => Array.from(word)[0] ?? '')
      .join('')
      .toUpperCase();
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) return fromWords([words[0] ?? '', words[words.length - 1] ?? '']);
  if (words.length === 1) return fromWords(words);
  const local = email.split('@')[0] ?? '';
  return fromWords(local.split(/[._+-]+/)) || '?';
}

/**
 * SPEC §2: switching accounts rewrites the /accounts/{id} segment of the current path (the first one, a whole path
 * segment only: `/myaccounts/3` and `/accounts/` without an id are left alone). Search and hash are not part of the
 * pathname and so never touched.
 */
export function rewriteAccountSegment(pathname: string, accountId: number): string {
  return pathname.replace(/(^|\/)accounts\/[^/?#]+/, `$1accounts/${accountId}`);
}

/** The lists whose pages of one object (`/forms/{id}`, `/activity-log/{id}`) show an object of one account. */
export type ObjectList = '/forms/' | '/activity-log/';

/**
 * The list a page of one object belongs to, or null for any other page. Switching accounts on such a page goes to the
 * list in the new account: the object is the previous account's (issue 13 item 11).
 */
export function objectListOf(pathname: string): ObjectList | null {
  if (/^\/forms\/[^/]+\/?$/.test(pathname)) return '/forms/';
  // /activity-log/attempts, /revocations and /contactability are the log's other views (lists), not verifications.
  if (/^\/activity-log\/(?!(attempts|revocations|contactability)\/?$)[^/]+\/?$/.test(pathname))
    return '/activity-log/';
  return null;
}
