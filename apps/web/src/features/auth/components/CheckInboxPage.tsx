import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { AuthPage } from '../../../components/layout/AuthPage';
import { AnchorLink } from '../../../components/links';

/**
 * "Check your inbox" after a link was mailed (a password reset, a verification): what was sent where, then how long it
 * may take, then whatever the page offers next (`children`: a resend, a link to ask again).
 */
export function CheckInboxPage(props: {
  sent: ReactNode;
  hint: string;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <AuthPage title="Check your inbox" footer={props.footer}>
      <Stack gap="xs">
        <Text>{props.sent}</Text>
        <Text c="dimmed" size="sm">
          {props.hint}
        </Text>
      </Stack>
      {props.children}
    </AuthPage>
  );
}

/** Under a mailed link: the page that sends another. */
export function RequestNewLink({ to }: { to: '/auth/reset-password/' | '/auth/verify-email/resend' }) {
  return (
    <Text size="sm">
      Did not get it? <AnchorLink to={to}>Request a new link</AnchorLink>
    </Text>
  );
}

/** The footer of the pages for a signed-in user whose address is not verified: someone else's session can be left. */
export function NotYouFooter() {
  return (
    <>
      Not you? <AnchorLink to="/settings/logout">Log out</AnchorLink>
    </>
  );
}
