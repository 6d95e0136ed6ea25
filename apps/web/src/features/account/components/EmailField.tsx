import { Badge, Button, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { emailSchema } from '@veriform/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { ApiValidationError, RateLimitedError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import {
  emailChangeRequestQueryKey,
  emailChangeRequestQueryOptions,
  useRequestEmailChangeMutation,
  useResendEmailChangeMutation,
} from '../../auth/api';
import { emailChangeAction, hasOpenEmailChange, sameEmail } from '../email-change';
import { EditButton, useInlineEdit } from '../inline-edit';
import { useEmailChangeRefresh } from '../use-email-change-refresh';
import { useSendCountdown } from '../use-send-countdown';

const LABEL = 'Email';
const PASSWORD_LABEL = 'Password';

/**
 * SPEC §2, §4: the e-mail address, read-only until "Edit email". The typed address decides the action (Send
 * Verification, Resend Verification or none); Cancel puts the current address back. An open request shows under the
 * field with "Refresh Status"; another tab confirming the change refreshes it too.
 *
 * Sending to a new address asks for the current password (the server refuses without it). The server sends at most
 * one change e-mail every EMAIL_CHANGE_RESEND_SECONDS: until then the button counts down instead of offering a send
 * the server would refuse, and a refusal for too many requests is a toast, never an error on the address.
 */
export function EmailField() {
  const { api } = useServices();
  const { user } = useSession();
  const requestQuery = useQuery(emailChangeRequestQueryOptions(api));
  const changeRequest = requestQuery.data;
  const send = useRequestEmailChangeMutation();
  const resend = useResendEmailChangeMutation();
  const openRequest = hasOpenEmailChange(changeRequest) ? changeRequest : null;
  const { refresh, refreshing } = useEmailChangeRefresh(openRequest?.toEmail);
  const queryClient = useQueryClient();
  const waitSeconds = useSendCountdown(changeRequest);

  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const field = useInlineEdit(user.email, () => {
    setPassword('');
    setPasswordError(null);
  });
  const { editing, setEditing, value, setError, inputRef, stop: cancel, onKeyDown } = field;
  const passwordRef = useRef<HTMLInputElement>(null);

  const action = editing ? emailChangeAction(value, user.email, changeRequest) : null;
  const pending = send.isPending || resend.isPending;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editing || pending) return;
    if (!action) {
      // Nothing to send: say why when the text is not a usable new address.
      const parsed = emailSchema.safeParse(value);
      if (!parsed.success) setError(parsed.error.issues[0]?.message ?? 'Invalid email');
      else if (sameEmail(parsed.data, user.email)) cancel();
      return;
    }
    if (waitSeconds > 0) return;
    if (action === 'send' && !password) {
      setPasswordError('Required');
      passwordRef.current?.focus();
      return;
    }
    try {
      if (action === 'resend') {
        const request = await resend.mutateAsync();
        notify.success('Resent Verification Email', `Sent to ${request.toEmail}.`);
      } else {
        const toEmail = emailSchema.parse(value);
        const request = await send.mutateAsync({ toEmail, password });
        notify.success('Sent Verification Email', `Sent to ${request.toEmail || toEmail}.`);
      }
      cancel();
    } catch (failure) {
      if (failure instanceof RateLimitedError) {
        // Not the address's fault: say so in a toast, and re-read when the last e-mail went (another tab may have sent).
        notify.error('Not sent', failure.message);
        void queryClient.invalidateQueries({ queryKey: emailChangeRequestQueryKey });
        return;
      }
      if (failure instanceof ApiValidationError && failure.fieldErrors.password) {
        setPasswordError(failure.fieldErrors.password);
        passwordRef.current?.focus();
        return;
      }
      setError(
        failure instanceof ApiValidationError && failure.fieldErrors.toEmail
          ? failure.fieldErrors.toEmail
          : errorDisplayText(failure, { toEmail: LABEL, password: PASSWORD_LABEL }),
      );
      inputRef.current?.focus();
    }
  };

  const buttons = editing ? (
    <>
      {action && (
        <Button type="submit" loading={pending} disabled={waitSeconds > 0}>
          {action === 'resend' ? 'Resend Verification' : 'Send Verification'}
          {waitSeconds > 0 && ` (${waitSeconds} s)`}
        </Button>
      )}
      <Button type="button" variant="default" onClick={cancel} disabled={pending}>
        Cancel
      </Button>
    </>
  ) : (
    <EditButton onEdit={() => setEditing(true)}>Edit email</EditButton>
  );

  return (
    <Stack gap="xs">
      <form onSubmit={submit} noValidate>
        <TextInput
          {...field.inputProps}
          label={LABEL}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          inputContainer={(input) => (
            <Group gap="sm" align="flex-start" wrap="wrap">
              <div style={{ flex: '1 1 220px', minWidth: 0 }}>{input}</div>
              <Group gap="sm" wrap="nowrap">
                {buttons}
              </Group>
            </Group>
          )}
        />
        {action === 'send' && (
          <PasswordInput
            ref={passwordRef}
            mt="xs"
            label={PASSWORD_LABEL}
            description="Your current password, to confirm that it is you."
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setPasswordError(null);
            }}
            onKeyDown={onKeyDown}
            error={passwordError}
            // Mantine's PasswordInput does not mark its input itself.
            aria-invalid={Boolean(passwordError)}
            style={{ maxWidth: 360 }}
          />
        )}
        {action && waitSeconds > 0 && (
          // Not a live region: it changes every second.
          <Text size="sm" c="dimmed" mt="xs">
            A verification e-mail went out moments ago: the next one can be sent in {waitSeconds} s.
          </Text>
        )}
      </form>
      {requestQuery.isPending && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking for e-mail changes…
          </Text>
        </Group>
      )}
      {requestQuery.isError && (
        <Text size="sm" c="red">
          Could not load the e-mail change status: {errorDisplayText(requestQuery.error)}
        </Text>
      )}
      {openRequest && (
        <Group gap="sm" justify="space-between" wrap="wrap" data-testid="email-change-request">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">Waiting for confirmation of {openRequest.toEmail}</Text>
            <Badge
              variant="light"
              color={openRequest.status === 'expired' ? 'orange' : 'blue'}
              // Dark text on the tint: Mantine's light orange (orange.9 on orange.1) is 3.6:1, below AA's 4.5:1.
              c={openRequest.status === 'expired' ? 'dark.6' : undefined}
            >
              {openRequest.status_display || openRequest.status}
            </Badge>
          </Group>
          <Button size="xs" variant="light" onClick={() => void refresh()} loading={refreshing}>
            Refresh Status
          </Button>
        </Group>
      )}
    </Stack>
  );
}
