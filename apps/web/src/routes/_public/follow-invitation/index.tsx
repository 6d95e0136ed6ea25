import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { invitationPages, teamTexts } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { AuthPage } from '../../../components/layout/AuthPage';
import { ButtonLink } from '../../../components/links';
import { useLogoutMutation } from '../../../features/auth/api';
import { useAcceptInvitationMutation } from '../../../features/invitations/api';
import {
  invitationSentence,
  requireFollowInvitation,
  sameAddress,
} from '../../../features/invitations/follow';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';

const searchSchema = z.object({ key: z.string().optional().catch(undefined) });

/** SPEC §2: the invitation e-mail's link. The invitation comes with the page data; without it, the error page. */
export const Route = createFileRoute('/_public/follow-invitation/')({
  validateSearch: searchSchema,
  beforeLoad: requireFollowInvitation,
  component: FollowInvitationPage,
});

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

function FollowInvitationPage() {
  const { invitation } = Route.useRouteContext();
  const { user } = useSession();
  const accept = useAcceptInvitationMutation();
  const logout = useLogoutMutation();
  const navigate = useNavigate();
  const search = { key: invitation.key };

  const acceptNow = () =>
    accept.mutate(invitation.key, {
      onSuccess: () => {
        notify.success('Invitation accepted', `Welcome to ${invitation.accountName}.`);
        void navigate({ to: '/', replace: true });
      },
    });

  let action: ReactNode;
  if (user.isAuthenticated && sameAddress(user.email, invitation.email)) {
    action = (
      <Button onClick={acceptNow} loading={accept.isPending} fullWidth>
        Accept invitation
      </Button>
    );
  } else if (user.isAuthenticated) {
    action = (
      <Stack gap="sm">
        <Text>
          You are logged in as <strong>{user.email}</strong>. {teamTexts.wrongInvitee(invitation.email)}
        </Text>
        <Button
          variant="default"
          onClick={() =>
            logout.mutate(undefined, {
              onError: (error) => notify.error('Failed to Log Out', errorDisplayText(error)),
            })
          }
          loading={logout.isPending}
          fullWidth
        >
          Log out
        </Button>
      </Stack>
    );
  } else if (invitation.userExists) {
    action = (
      <ButtonLink to={invitationPages.login} search={search} fullWidth>
        Log in to accept
      </ButtonLink>
    );
  } else {
    action = (
      <ButtonLink to={invitationPages.signup} search={search} fullWidth>
        Sign up to accept
      </ButtonLink>
    );
  }

  return (
    <AuthPage title={`Join ${invitation.accountName}`}>
      <Text>{invitationSentence(invitation)}</Text>
      <Text size="sm" c="dimmed">
        The invitation was sent to {invitation.email} and is valid until {formatDate(invitation.expiresAt)}.
      </Text>
      {accept.error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
          {errorDisplayText(accept.error)}
        </Alert>
      )}
      {action}
    </AuthPage>
  );
}
