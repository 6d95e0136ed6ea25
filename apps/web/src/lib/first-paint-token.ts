import { INITIAL_DATA_ELEMENT_ID } from '@veriform/contracts/page-data-element';

/**
 * The page data's CSRF token when it names no signed-in user and no redirect, else null. Read without zod (as the
 * verify page reads its own): whatever does not look right here goes to the app, which parses the data properly.
 */
export function anonymousCsrfToken(doc: Document): string | null {
  try {
    const data: unknown = JSON.parse(doc.getElementById(INITIAL_DATA_ELEMENT_ID)?.textContent ?? 'null');
    if (typeof data !== 'object' || data === null) return null;
    if (!('user' in data && 'extra' in data && 'csrfToken' in data)) return null;
    const { user, extra, csrfToken } = data;
    if (
      typeof user !== 'object' ||
      user === null ||
      !('isAuthenticated' in user) ||
      user.isAuthenticated !== false
    ) {
      return null;
    }
    if (typeof extra !== 'object' || extra === null) return null;
    // `signaling: {immediatelyRedirectTo: null}` is always there; a redirect the app makes (SPEC §3).
    const { signaling } = extra as { signaling?: { immediatelyRedirectTo?: unknown } };
    if (signaling?.immediatelyRedirectTo) return null;
    return typeof csrfToken === 'string' ? csrfToken : null;
  } catch {
    return null;
  }
}
