import { Anchor, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { SUPPORT_EMAIL } from '@veriform/contracts';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/change-email/cancel/invalid')({
  component: CancelEmailChangeInvalidPage,
});

/** The cancel link no longer applies: the change was cancelled or replaced, has expired, or already went through. */
function CancelEmailChangeInvalidPage() {
  return (
    <AuthPage title="This link is invalid or has expired">
      <Text>
        There is no change of address left to cancel with this link: it was already cancelled, replaced by a
        newer request, has expired, or the change was confirmed.
      </Text>
      <Text>
        If your address was changed and you did not ask for it, reset your password and write to{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor> right away.
      </Text>
      <ButtonLink to="/auth/reset-password" fullWidth>
        Reset password
      </ButtonLink>
    </AuthPage>
  );
}
