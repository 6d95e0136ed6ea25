import { Alert, Button, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { errorTexts } from '@veriform/contracts';

/**
 * SPEC §6: the pages of an account show this error without a current membership (never had one, or it was taken
 * away), with the way forward: a company of one's own.
 */
export function NoMembershipAlert() {
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle aria-hidden="true" />}
      role="alert"
      title={errorTexts.noMembership}
    >
      <Text size="sm" mb="sm">
        You are not a member of any company here. Create your own, or ask a teammate to invite you.
      </Text>
      <Button component={Link} to="/auth/signup/complete" size="xs">
        Create a company
      </Button>
    </Alert>
  );
}
