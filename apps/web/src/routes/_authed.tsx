import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from '../features/shell/components/AppLayout';
import { gateTarget } from '../lib/gate';

/** Everything inside needs a signed-in user with a verified e-mail (SPEC §4 gate), shown in the app shell. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: ({ context, location }) => {
    const target = gateTarget(context.session.get().user);
    if (target === '/auth/login') throw redirect({ to: '/auth/login', search: { next: location.href } });
    if (target) throw redirect({ to: target });
  },
  component: AuthedLayout,
});

function AuthedLayout() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
