import { type FollowInvitation, invitationPages } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { AuthPage } from '../../../components/layout/AuthPage';
import { AnchorLink } from '../../../components/links';
import { invitationSentence } from '../follow';

const pages = {
  login: {
    verb: 'Log in',
    question: 'New to Veriform?',
    other: { to: invitationPages.signup, label: 'Sign up to accept' },
  },
  signup: {
    verb: 'Sign up',
    question: 'Already have an account?',
    other: { to: invitationPages.login, label: 'Log in to accept' },
  },
} as const;

/**
 * SPEC §2: the page that logs in (or signs up) to accept an invitation: who invited whom to what, the form, and a
 * link to the other way in that keeps the invitation.
 */
export function InvitationAuthPage(props: {
  page: keyof typeof pages;
  invitation: FollowInvitation;
  children: ReactNode;
}) {
  const { verb, question, other } = pages[props.page];
  const { invitation } = props;
  return (
    <AuthPage
      title={`${verb} to join ${invitation.accountName}`}
      description={invitationSentence(invitation)}
      footer={
        <>
          {question}{' '}
          <AnchorLink to={other.to} search={{ key: invitation.key }}>
            {other.label}
          </AnchorLink>
        </>
      }
    >
      {props.children}
    </AuthPage>
  );
}
