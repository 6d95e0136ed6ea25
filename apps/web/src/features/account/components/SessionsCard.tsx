import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AuthSession } from '@veriform/contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CardFields, DataList } from '../../../components/data-list/DataList';
import { DetailField } from '../../../components/layout/DetailField';
import { SettingCard } from '../../../components/layout/SettingCard';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import {
  authSessionsQueryOptions,
  useEndOtherSessionsMutation,
  useEndSessionMutation,
} from '../security-api';

const signedInWithLabels: Record<AuthSession['signedInWith'], string> = {
  password: 'Password',
  passkey: 'Passkey',
  sso: 'Single sign-on',
};

const place = (session: AuthSession) =>
  [session.place, session.ip].filter((part): part is string => Boolean(part)).join(' · ') || 'Unknown';

function DeviceName({ session }: { session: AuthSession }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {session.device}
      </Text>
      {session.current && (
        <Badge variant="light" color="green" size="sm">
          This device
        </Badge>
      )}
    </Group>
  );
}

type Ending = { kind: 'one'; session: AuthSession } | { kind: 'others' } | null;

function SessionList({ sessions }: { sessions: AuthSession[] }) {
  const [ending, setEnding] = useState<Ending>(null);
  const endOne = useEndSessionMutation();
  const endOthers = useEndOtherSessionsMutation();
  const others = sessions.filter((session) => !session.current).length;

  const endButton = (session: AuthSession) =>
    session.current ? null : (
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        aria-label={`Sign out ${session.device}, last seen ${formatDateTime(session.lastSeenAt)}`}
        onClick={() => setEnding({ kind: 'one', session })}
      >
        Sign out
      </Button>
    );

  const confirm = () => {
    if (!ending) return;
    const done = { onSettled: () => setEnding(null) };
    if (ending.kind === 'one')
      endOne.mutate(ending.session.id, {
        ...done,
        onSuccess: () => notify.success('Signed out', `${ending.session.device} is signed out.`),
        onError: (error) => notify.error('Not signed out', errorDisplayText(error)),
      });
    else
      endOthers.mutate(undefined, {
        ...done,
        onSuccess: () => notify.success('Signed out everywhere else', 'Only this device is still signed in.'),
        onError: (error) => notify.error('Not signed out', errorDisplayText(error)),
      });
  };

  return (
    <Stack gap="md">
      <DataList
        label="Sessions"
        rows={sessions}
        rowKey={(session) => session.id}
        minWidth={640}
        columns={[
          { label: 'Device', cell: (session) => <DeviceName session={session} /> },
          { label: 'Place', cell: place, td: { style: { overflowWrap: 'anywhere' } } },
          { label: 'Signed in with', cell: (session) => signedInWithLabels[session.signedInWith] },
          { label: 'Last seen', cell: (session) => formatDateTime(session.lastSeenAt) },
          { label: 'Actions', header: <VisuallyHidden>Actions</VisuallyHidden>, cell: endButton },
        ]}
        card={(session) => (
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <DeviceName session={session} />
              {endButton(session)}
            </Group>
            <CardFields>
              <DetailField label="Place">{place(session)}</DetailField>
              <DetailField label="Last seen">{formatDateTime(session.lastSeenAt)}</DetailField>
              <DetailField label="Signed in with">{signedInWithLabels[session.signedInWith]}</DetailField>
              <DetailField label="Signed in">{formatDateTime(session.createdAt)}</DetailField>
            </CardFields>
          </Stack>
        )}
      />
      {others > 0 && (
        <Group>
          <Button variant="default" color="red" onClick={() => setEnding({ kind: 'others' })}>
            Sign out everywhere else
          </Button>
        </Group>
      )}
      <ConfirmModal
        opened={ending !== null}
        title={ending?.kind === 'others' ? 'Sign out everywhere else?' : 'Sign out this session?'}
        confirmLabel="Sign out"
        loading={endOne.isPending || endOthers.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={confirm}
      >
        {ending?.kind === 'others'
          ? `Every other session (${others}) is signed out. This device stays signed in.`
          : `${ending?.session.device ?? 'That session'} is signed out at once.`}
      </ConfirmModal>
    </Stack>
  );
}

/** My Account › Security: where the person is signed in (issue #38 item 5); any session but this one can be ended. */
export function SessionsCard() {
  const { api } = useServices();
  const read = useQuery(authSessionsQueryOptions(api));
  return (
    <SettingCard
      title="Sessions"
      description="Where you are signed in. Sign out a device you do not recognise, or every device but this one."
      read={read}
      loading="Loading your sessions"
      errorLead="Your sessions could not be loaded: "
      owner
      edit={(sessions) => <SessionList sessions={sessions} />}
    />
  );
}
