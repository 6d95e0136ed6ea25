/**
 * Whether the browser can make and use passkeys at all (their buttons are left out where it cannot). A module of its
 * own, without imports: the login page's first paint asks it.
 */
export function browserSupportsPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}
