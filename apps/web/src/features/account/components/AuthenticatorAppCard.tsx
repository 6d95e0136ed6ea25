import { Alert, Badge, Box, Button, Code, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type SecondFactors, type TotpSetupResponse, totpCodeSchema } from '@veriform/contracts';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { FormModal } from '../../../components/form/FormModal';
import { SettingCard } from '../../../components/layout/SettingCard';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import {
  secondFactorsQueryOptions,
  useConfirmTotpMutation,
  useRegenerateRecoveryCodesMutation,
  useRemoveTotpMutation,
  useStartTotpMutation,
} from '../security-api';
import { RecoveryCodesModal } from './RecoveryCodesModal';

/** The QR code's drawing (an SVG made here, never by an outside service), fetched when the setup opens. */
const QRCodeSVG = lazy(() => import('qrcode.react').then((module) => ({ default: module.QRCodeSVG })));

const labels = { code: 'Code from the app' } as const;

/** The base32 secret in groups of four, as authenticator apps show and take it. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function SetupIntro({ setup }: { setup: TotpSetupResponse }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        Scan this code with your authenticator app (Google Authenticator, 1Password, Authy…), or type the key
        beside it. Then enter the 6-digit code the app shows.
      </Text>
      <Group align="center" gap="md" wrap="wrap">
        <Box bg="white" p={8} style={{ borderRadius: 4, lineHeight: 0 }}>
          <Suspense fallback={<Skeleton width={160} height={160} aria-label="Loading the QR code" />}>
            <QRCodeSVG value={setup.otpauthUrl} size={160} role="img" aria-label="QR code of the key" />
          </Suspense>
        </Box>
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 180px' }}>
          <Text size="sm" fw={600} id="totp-secret-label">
            Key
          </Text>
          <Code
            aria-labelledby="totp-secret-label"
            data-testid="totp-secret"
            style={{ overflowWrap: 'anywhere' }}
          >
            {groupedSecret(setup.secret)}
          </Code>
        </Stack>
      </Group>
    </Stack>
  );
}

/** Set up: a new secret (QR and text), confirmed by a first code; the answer is the recovery codes. */
function TotpSetupModal({
  onClose,
  onConfirmed,
}: {
  onClose: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const start = useStartTotpMutation();
  const confirm = useConfirmTotpMutation();
  const started = useRef(false);
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => totpCodeSchema.safeParse(value).error?.issues[0]?.message ?? null },
  });
  useEffect(() => {
    // Once: each start makes a new secret, replacing the last.
    if (started.current) return;
    started.current = true;
    start.mutate();
  }, [start]);

  return (
    <FormModal
      onClose={onClose}
      title="Set up an authenticator app"
      formLabel="Set up an authenticator app"
      form={form}
      mutation={confirm}
      labels={labels}
      submit={(values) => confirm.mutateAsync(totpCodeSchema.parse(values.code))}
      onDone={(result) => onConfirmed(result.recoveryCodes)}
      submitLabel="Turn on"
      intro={
        start.data ? (
          <SetupIntro setup={start.data} />
        ) : start.error ? (
          <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
            {errorDisplayText(start.error)}
          </Alert>
        ) : (
          <Skeleton height={176} aria-label="Loading the key" />
        )
      }
    >
      <TextInput
        label={labels.code}
        required
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={7}
        data-autofocus
        disabled={!start.data}
        {...form.getInputProps('code')}
      />
    </FormModal>
  );
}

type Dialog = 'setup' | 'remove' | 'regenerate' | { codes: string[] } | null;

function AuthenticatorAppBody({ factors }: { factors: SecondFactors }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const remove = useRemoveTotpMutation();
  const regenerate = useRegenerateRecoveryCodesMutation();
  const close = () => setDialog(null);

  return (
    <>
      {factors.totp.enabled ? (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge color="green" variant="light">
              On
            </Badge>
            {factors.totp.confirmedAt && (
              <Text size="sm" c="dimmed">
                Set up {formatDateTime(factors.totp.confirmedAt)}
              </Text>
            )}
          </Group>
          <Text size="sm">
            {factors.recoveryCodesLeft === 1
              ? '1 recovery code left.'
              : `${factors.recoveryCodesLeft} recovery codes left.`}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={() => setDialog('regenerate')}>
              New recovery codes
            </Button>
            <Button variant="default" color="red" onClick={() => setDialog('remove')}>
              Remove
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group>
          <Button onClick={() => setDialog('setup')}>Set up authenticator app</Button>
        </Group>
      )}
      {dialog === 'setup' && <TotpSetupModal onClose={close} onConfirmed={(codes) => setDialog({ codes })} />}
      {typeof dialog === 'object' && dialog !== null && (
        <RecoveryCodesModal
          codes={dialog.codes}
          onDone={() => {
            close();
            notify.success('Recovery codes saved', 'Each one signs you in once.');
          }}
        />
      )}
      <ConfirmModal
        opened={dialog === 'remove'}
        title="Remove the authenticator app?"
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={close}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              close();
              notify.success(
                'Authenticator app removed',
                'Its codes and your recovery codes no longer work.',
              );
            },
            onError: (error) => {
              close();
              notify.error('Not removed', errorDisplayText(error));
            },
          })
        }
      >
        Its codes and your recovery codes stop working, and your other sessions are signed out.
      </ConfirmModal>
      <ConfirmModal
        opened={dialog === 'regenerate'}
        title="Make new recovery codes?"
        confirmLabel="Make new codes"
        loading={regenerate.isPending}
        onCancel={close}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: (result) => setDialog({ codes: result.recoveryCodes }),
            onError: (error) => {
              close();
              notify.error('No new codes', errorDisplayText(error));
            },
          })
        }
      >
        Your current recovery codes stop working at once.
      </ConfirmModal>
    </>
  );
}

/** My Account › Security: the authenticator app (TOTP) and its recovery codes (issue #38). */
export function AuthenticatorAppCard() {
  const { api } = useServices();
  const read = useQuery(secondFactorsQueryOptions(api));
  return (
    <SettingCard
      title="Authenticator app"
      description="A 6-digit code from an app on your phone, asked after your password."
      read={read}
      loading="Loading the authenticator app"
      errorLead="Your second factors could not be loaded: "
      owner
      edit={(factors) => <AuthenticatorAppBody factors={factors} />}
    />
  );
}
