import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorTexts } from '@veriform/contracts';

/** SPEC §6: pages that need a current membership show this error without one. */
export function NoMembershipAlert() {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
      {errorTexts.noMembership}
    </Alert>
  );
}
