import { createFileRoute } from '@tanstack/react-router';
import { EmailVerifiedPage } from '../../../../features/auth/components/EmailVerifiedPage';

export const Route = createFileRoute('/_public/auth/verify-email/success')({
  component: EmailVerifiedPage,
});
