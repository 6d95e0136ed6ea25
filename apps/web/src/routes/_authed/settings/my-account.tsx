import { Divider, Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { type ReactNode, useId } from 'react';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { AuthenticatorAppCard } from '../../../features/account/components/AuthenticatorAppCard';
import { ChangePasswordForm } from '../../../features/account/components/ChangePasswordForm';
import { CloseAccountNote } from '../../../features/account/components/CloseAccountNote';
import { EmailField } from '../../../features/account/components/EmailField';
import { NameField } from '../../../features/account/components/NameField';
import { PasskeysCard } from '../../../features/account/components/PasskeysCard';
import { ProfileImageRow } from '../../../features/account/components/ProfileImageRow';
import { SessionsCard } from '../../../features/account/components/SessionsCard';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/my-account')({
  component: MyAccountPage,
});

function Card({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <SectionPaper aria-labelledby={titleId}>
      <Stack gap="md">
        <Title order={2} size="h4" id={titleId}>
          {title}
        </Title>
        {children}
      </Stack>
    </SectionPaper>
  );
}

/**
 * SPEC §2 my-account: profile picture, name, e-mail, password, the security section (issue #38: authenticator app,
 * passkeys, sessions), and how to close the account.
 */
function MyAccountPage() {
  usePageTitle('My Account');
  return (
    <Stack gap="lg" maw={720}>
      <Card title="Profile">
        <ProfileImageRow />
        <Divider />
        <NameField />
        <EmailField />
      </Card>
      <Card title="Reset Password">
        <ChangePasswordForm />
      </Card>
      <Title order={2} size="h3" mt="sm">
        Security
      </Title>
      <AuthenticatorAppCard />
      <PasskeysCard />
      <SessionsCard />
      <Card title="Close account">
        <CloseAccountNote />
      </Card>
    </Stack>
  );
}
