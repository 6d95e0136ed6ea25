import { Text } from '@mantine/core';
import { AuthPage } from '../../../components/layout/AuthPage';
import { ButtonLink } from '../../../components/links';

/** The page a verification link lands on once the address is verified (after sign-up or later). */
export function EmailVerifiedPage() {
  return (
    <AuthPage title="Your e-mail address is verified">
      <Text>Thanks for confirming your address.</Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
