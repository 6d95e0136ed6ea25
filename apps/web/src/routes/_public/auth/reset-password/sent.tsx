import { createFileRoute } from '@tanstack/react-router';
import { serverTexts } from '@veriform/contracts';
import { CheckInboxPage, RequestNewLink } from '../../../../features/auth/components/CheckInboxPage';

export const Route = createFileRoute('/_public/auth/reset-password/sent')({
  component: ResetPasswordSentPage,
});

function ResetPasswordSentPage() {
  return (
    <CheckInboxPage
      sent={serverTexts.resetPasswordSent}
      hint="Open the link to choose a new password. It can take a minute to arrive; check your spam folder too."
    >
      <RequestNewLink to="/auth/reset-password/" />
    </CheckInboxPage>
  );
}
