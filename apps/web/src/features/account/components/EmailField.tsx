import { Badge, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { emailSchema } from '@veriform/contracts';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import {
  emailChangeRequestQueryOptions,
  useRequestEmailChangeMutation,
  useResendEmailChangeMutation,
} from '../../auth/api';
import { emailChangeAction, hasOpenEmailChange, sameEmail } from '../email-change';
import { useEmailChangeRefresh } from '../use-email-change-refresh';

const LABEL = 'Email';

/**
 * SPEC §2, §4: the e-mail address, read-only until "Edit email". The typed address decides the action (Send
 * Verification, Resend Verification or none); Cancel puts the current address back. An open request shows under the
 * field with "Refresh Status"; another tab confirming the change refreshes it too.
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

  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(user.email);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!editing) setValue(user.email);
  }, [editing, user.email]);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const action = editing ? emailChangeAction(value, user.email, changeRequest) : null;
  const pending = send.isPending || resend.isPending;

  const cancel = () => {
    setEditing(false);
    setValue(user.email);
    setError(null);
  };

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
    try {
      if (action === 'resend') {
        const request = await resend.mutateAsync();
        notify.success('Resent Verification Email', `Sent to ${request.toEmail}.`);
      } else {
        const toEmail = emailSchema.parse(value);
        const request = await send.mutateAsync({ toEmail });
        notify.success('Sent Verification Email', `Sent to ${request.toEmail || toEmail}.`);
      }
      cancel();
    } catch (failure) {
      setError(
        failure instanceof ApiValidationError && failure.fieldErrors.toEmail
          ? failure.fieldErrors.toEmail
          : errorDisplayText(failure, { toEmail: LABEL }),
      );
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      cancel();
    }
  };

  const buttons = editing ? (
    <>
      {action && (
        <Button type="submit" loading={pending}>
          {action === 'resend' ? 'Resend Verification' : 'Send Verification'}
        </Button>
      )}
      <Button type="button" variant="default" onClick={cancel} disabled={pending}>
        Cancel
      </Button>
    </>
  ) : (
    <Button
      type="button"
      variant="default"
      onClick={(event) => {
        event.preventDefault();
        setEditing(true);
      }}
    >
      Edit email
    </Button>
  );

  return (
    <Stack gap="xs">
      <form onSubmit={submit} noValidate>
        <TextInput
          ref={inputRef}
          label={LABEL}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
          readOnly={!editing}
          variant={editing ? 'default' : 'filled'}
          required
          error={error}
          inputContainer={(input) => (
            <Group gap="sm" align="flex-start" wrap="wrap">
              <div style={{ flex: '1 1 220px', minWidth: 0 }}>{input}</div>
              <Group gap="sm" wrap="nowrap">
                {buttons}
              </Group>
            </Group>
          )}
        />
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
