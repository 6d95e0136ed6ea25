import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';

/** Log in and sign up are for visitors; a signed-in user goes on to the app. */
export const Route = createFileRoute('/_public/_guest')({
  beforeLoad: ({ context }) => {
    if (context.session.get().user.isAuthenticated) throw redirect({ to: '/' });
  },
  component: Outlet,
});
