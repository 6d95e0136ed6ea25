import { createFileRoute, redirect } from '@tanstack/react-router';
import { EmailVerifiedPage } from '../../../../../features/auth/components/EmailVerifiedPage';

export const Route = createFileRoute('/_public/auth/signup/verify-email/success')({
  beforeLoad: ({ context }) => {
    const { user } = context.session.get();
    if (!user.isAuthenticated || !user.emailIsVerified) throw redirect({ to: '/' });
  },
  component: EmailVerifiedPage,
});
