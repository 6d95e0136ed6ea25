import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { secondFactorTexts } from '@veriform/contracts';
import { useServices } from '../../../lib/services';
import { useLogoutMutation } from '../../auth/api';
import { secondFactorsQueryOptions } from '../security-api';
import { AuthenticatorAppCard } from './AuthenticatorAppCard';
import { PasskeysCard } from './PasskeysCard';

/**
 * The account requires a second factor and the person has none (403 `mfa_setup_required`, issue #38): before anything
 * else they set one up here (an authenticator app or a passkey) or sign out; Continue opens the app again.
 */
export function MfaSetupScreen({ onDone }: { onDone: () => void }) {
  const { api } = useServices();
  const factors = useQuery(secondFactorsQueryOptions(api));
  const logout = useLogoutMutation();
  const enrolled = Boolean(factors.data && (factors.data.totp.enabled || factors.data.passkeys > 0));
  return (
    <Modal
      opened
      fullScreen
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      title="Set up a second factor"
    >
      <Stack gap="lg" maw={720} mx="auto">
        <Alert color="blue" icon={<IconShieldLock aria-hidden="true" />}>
          {secondFactorTexts.mfaSetupRequired}
        </Alert>
        <AuthenticatorAppCard />
        <PasskeysCard />
        <Group justify="space-between">
          <Button
            variant="default"
            loading={logout.isPending}
            onClick={() =>
              logout.mutate(undefined, { onSuccess: () => window.location.assign('/auth/login') })
            }
          >
            Sign out
          </Button>
          <Button onClick={onDone} disabled={!enrolled}>
            Continue
          </Button>
        </Group>
        {!enrolled && (
          <Text size="sm" c="dimmed" ta="right">
            Continue opens once a second factor is set up.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
