import { redirect } from '@tanstack/react-router';
import { needsAccount } from './gate';
import type { RouterContext } from './router-context';

/** `beforeLoad` of the routes that need an account: without a membership, create a company first (SPEC §4 gate). */
export function requireAccount({ context }: { context: RouterContext }): void {
  if (needsAccount(context.session.get())) throw redirect({ to: '/auth/signup/complete' });
}
