import { Alert, Box, Button, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconCalendarPlus,
  IconDownload,
  IconFileCheck,
  IconLoader,
  IconPlayerPlay,
  IconShieldLock,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type {
  Membership,
  PrivacyRequest,
  PrivacyRequestAnswer,
  PrivacyRequestMatches,
  PrivacyRequestType,
} from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { RetryAlert } from '../../../components/errors/RetryAlert';
import { DetailField } from '../../../components/layout/DetailField';
import { EmptyState } from '../../../components/layout/EmptyState';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { NotFoundError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatCount, formatDateTime, formatPhoneForReading } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { saveBlob } from '../../../lib/save-blob';
import { useServices } from '../../../lib/services';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import {
  privacyRequestBundleUrl,
  privacyRequestQueryOptions,
  privacyRequestSearchDefaults,
  useCarryOutPrivacyRequestMutation,
} from '../api';
import {
  dueDateExplanation,
  formatDay,
  lawPeriodText,
  privacyLawLabels,
  privacyRequestTypeLabels,
} from '../labels';
import { privacyRequestReceipt, privacyRequestReceiptBlob, privacyRequestReceiptFileName } from '../receipt';
import { ExtendRequestModal } from './ExtendRequestModal';
import { DueDate, PrivacyRequestStatusBadge } from './PrivacyRequestList';

const fieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 220px), 1fr))',
  gap: 'var(--mantine-spacing-sm) var(--mantine-spacing-md)',
  margin: 0,
} as const;

const matchRows: { key: keyof PrivacyRequestMatches; label: string }[] = [
  { key: 'verifications', label: 'Verifications' },
  { key: 'attempts', label: 'Attempts' },
  { key: 'revocations', label: 'Revocations' },
  { key: 'webhookEvents', label: 'Webhook events' },
  { key: 'deliveries', label: 'Deliveries' },
];

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** What carrying it out does, said before it is done. */
function carryOutText(type: PrivacyRequestType, matches: PrivacyRequestMatches): ReactNode {
  const verifications = plural(matches.verifications, 'matching verification', 'matching verifications');
  if (type === 'access')
    return `Everything that holds the request’s numbers and addresses is gathered into a bundle (data.json and one CSV per kind) to download and send to the requester. Nothing is changed.`;
  if (type === 'erasure')
    return (
      <>
        The personal data of the {verifications}, their attempts, events and deliveries is redacted.{' '}
        <strong>This cannot be undone.</strong> Evidence under a legal hold is not erased: it is restricted
        instead, and the answer names the hold and its reason. Revocations of consent are kept, so the person
        is not contacted again.
      </>
    );
  return `The ${verifications} are kept but restricted: no longer used as consent. Nothing is deleted.`;
}

const confirmLabels: Record<PrivacyRequestType, string> = {
  access: 'Prepare the bundle',
  erasure: 'Erase',
  restriction: 'Restrict',
};

function Identifiers({ request }: { request: PrivacyRequest }) {
  const all = [...request.phones.map(formatPhoneForReading), ...request.emails];
  return (
    <Stack gap={2}>
      {all.map((identifier) => (
        <span key={identifier}>{identifier}</span>
      ))}
      {request.identifiersMasked && (
        <Text size="xs" c="gray.7">
          Masked since it was answered: the log keeps no more than the answer needs.
        </Text>
      )}
    </Stack>
  );
}

function Counts({ counts, label }: { counts: PrivacyRequestMatches; label: string }) {
  return (
    <Box component="dl" aria-label={label} style={fieldGrid}>
      {matchRows.map(({ key, label: rowLabel }) => (
        <DetailField key={key} label={rowLabel}>
          <Text span fw={700} fz="lg">
            {formatCount(counts[key])}
          </Text>
        </DetailField>
      ))}
    </Box>
  );
}

/** An erasure's copies of the person beyond its verifications, each counted when the answer counts it. */
function beyondVerifications(answer: PrivacyRequestAnswer): { label: string; value: number }[] {
  const rows: { label: string; value: number | undefined }[] = [
    { label: 'Other codes sent, erased', value: answer.attemptsErased },
    { label: 'Contactability checks erased', value: answer.verdictsErased },
    { label: 'Carrier lookups erased', value: answer.lookupsErased },
  ];
  return rows.flatMap((row) => (row.value === undefined ? [] : [{ label: row.label, value: row.value }]));
}

/** What was done, in numbers, by the request's type. */
function AnswerFigures({ type, answer }: { type: PrivacyRequestType; answer: PrivacyRequestAnswer }) {
  const rows: { label: string; value: number }[] =
    type === 'access'
      ? []
      : type === 'erasure'
        ? [
            { label: 'Verifications erased', value: answer.erased },
            { label: 'Restricted under a legal hold', value: answer.restricted },
            { label: 'Revocations kept', value: answer.revocationsKept },
            // Counted since erasures reached past the verifications (ADR 47's amendment); absent from older answers.
            ...beyondVerifications(answer),
          ]
        : [{ label: 'Verifications restricted', value: answer.restricted }];
  if (rows.length === 0) return null;
  return (
    <Box component="dl" style={fieldGrid}>
      {rows.map((row) => (
        <DetailField key={row.label} label={row.label}>
          <Text span fw={700} fz="lg">
            {formatCount(row.value)}
          </Text>
        </DetailField>
      ))}
    </Box>
  );
}

function AnswerSection({ request, answer }: { request: PrivacyRequest; answer: PrivacyRequestAnswer }) {
  return (
    <SectionPaper aria-labelledby="answer-heading">
      <Stack gap="md">
        <div>
          <Title order={3} size="h5" id="answer-heading">
            Answer
          </Title>
          {request.answeredAt && (
            <Text size="sm" c="dimmed">
              Answered <time dateTime={request.answeredAt}>{formatDateTime(request.answeredAt)}</time>
            </Text>
          )}
        </div>
        {answer.message && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {answer.message}
          </Text>
        )}
        <AnswerFigures type={request.type} answer={answer} />
        {answer.holds.length > 0 && (
          <div>
            <Text size="sm" fw={600} id="holds-heading">
              Kept by legal holds
            </Text>
            <List size="sm" spacing={4} aria-labelledby="holds-heading">
              {answer.holds.map((hold) => (
                <List.Item key={hold.id}>
                  <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {hold.reason} ({plural(hold.verifications, 'verification', 'verifications')}; hold{' '}
                    <Text span ff="monospace" size="xs">
                      {hold.id}
                    </Text>
                    )
                  </Text>
                </List.Item>
              ))}
            </List>
          </div>
        )}
        <Text size="sm" fw={600}>
          What matched when it was carried out
        </Text>
        <Counts counts={answer.counts} label="What matched when it was carried out" />
      </Stack>
    </SectionPaper>
  );
}

/** The request's page: its record, what it matches, and its actions (carry out, extend, downloads). */
function RequestView({ accountId, request }: { accountId: number; request: PrivacyRequest }) {
  const carryOut = useCarryOutPrivacyRequestMutation(accountId);
  const [dialog, setDialog] = useState<'carry-out' | 'extend' | null>(null);
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const receipt = privacyRequestReceipt(request);
  const title = `${privacyRequestTypeLabels[request.type]} request of ${request.requester.name}`;
  /**
   * The button that opened a dialog is gone once its action is done (Carry out, Extend): the dialog's closing gives
   * focus back to nothing (Mantine tries after 10 ms), so the keyboard starts again at the request.
   */
  const focusHeadingIfLost = () =>
    window.setTimeout(() => {
      const active = document.activeElement;
      if (active === null || active === document.body || !active.isConnected) headingRef.current?.focus();
    }, 50);

  const confirmCarryOut = () =>
    carryOut.mutate(request.id, {
      onSuccess: () => {
        notify.success('Request being carried out', 'This page shows the answer as soon as it is ready.');
        focusHeadingIfLost();
      },
      onError: (error) => notify.error('The request could not be carried out', errorDisplayText(error)),
      onSettled: () => setDialog(null),
    });

  const downloadReceipt = () => {
    if (!receipt) return;
    saveBlob(privacyRequestReceiptBlob(receipt), privacyRequestReceiptFileName(request.id));
  };

  return (
    <>
      <SectionPaper aria-labelledby="request-heading">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
            <Group gap="sm" wrap="wrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
              <Title
                ref={headingRef}
                tabIndex={-1}
                order={2}
                size="h4"
                id="request-heading"
                style={{ overflowWrap: 'anywhere' }}
              >
                {title}
              </Title>
              <PrivacyRequestStatusBadge request={request} />
            </Group>
            <Group gap="xs" wrap="wrap">
              {request.status === 'open' && (
                <Button
                  leftSection={<IconPlayerPlay size={16} aria-hidden="true" />}
                  onClick={() => setDialog('carry-out')}
                >
                  Carry out
                </Button>
              )}
              {request.extendable && (
                <Button
                  variant="default"
                  leftSection={<IconCalendarPlus size={16} aria-hidden="true" />}
                  onClick={() => setDialog('extend')}
                >
                  Extend
                </Button>
              )}
              {request.type === 'access' && request.answer?.bundleReady && (
                <Button
                  component="a"
                  href={privacyRequestBundleUrl(request.id)}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} aria-hidden="true" />}
                >
                  Download bundle
                </Button>
              )}
              {receipt && (
                <Button
                  variant="default"
                  leftSection={<IconFileCheck size={16} aria-hidden="true" />}
                  onClick={downloadReceipt}
                >
                  Download receipt
                </Button>
              )}
            </Group>
          </Group>
          {request.status === 'running' && (
            <Alert color="blue" icon={<IconLoader aria-hidden="true" />} title="Being carried out">
              <span role="status">This page shows the answer as soon as it is ready.</span>
            </Alert>
          )}
          <Box component="dl" style={fieldGrid}>
            <DetailField label="Law">
              {privacyLawLabels[request.law]} ({lawPeriodText(request.law)})
            </DetailField>
            <DetailField label="Requester">
              {request.requester.name}
              {request.requester.email && (
                <Text span display="block" size="xs" c="gray.7">
                  {request.requester.email}
                </Text>
              )}
            </DetailField>
            <DetailField label="Received">
              <time dateTime={request.receivedAt}>{formatDateTime(request.receivedAt)}</time>
            </DetailField>
            <DetailField label="Due">
              <DueDate request={request} />
              <Text span display="block" size="xs" c="gray.7">
                {dueDateExplanation(request)}
              </Text>
            </DetailField>
            <DetailField label="Numbers and addresses">
              <Identifiers request={request} />
            </DetailField>
            <DetailField label="Filed by">{request.filedBy}</DetailField>
            {request.extendedAt && (
              <DetailField label="Extended">
                <time dateTime={request.extendedAt}>{formatDay(request.extendedAt)}</time>
                {request.extensionReason && (
                  <Text span display="block" size="xs" c="gray.7" style={{ whiteSpace: 'pre-wrap' }}>
                    {request.extensionReason}
                  </Text>
                )}
              </DetailField>
            )}
          </Box>
        </Stack>
      </SectionPaper>

      {request.answer ? (
        <AnswerSection request={request} answer={request.answer} />
      ) : (
        <SectionPaper aria-labelledby="matches-heading">
          <Stack gap="md">
            <div>
              <Title order={3} size="h5" id="matches-heading">
                What it matches
              </Title>
              <Text size="sm" c="dimmed">
                Everything that holds the request’s numbers and addresses, counted now.
              </Text>
            </div>
            <Counts counts={request.matches} label="What it matches" />
          </Stack>
        </SectionPaper>
      )}

      <ConfirmModal
        opened={dialog === 'carry-out'}
        title={`Carry out the ${privacyRequestTypeLabels[request.type].toLowerCase()} request?`}
        confirmLabel={confirmLabels[request.type]}
        onConfirm={confirmCarryOut}
        onCancel={() => setDialog(null)}
        loading={carryOut.isPending}
      >
        {carryOutText(request.type, request.matches)}
      </ConfirmModal>
      {dialog === 'extend' && (
        <ExtendRequestModal
          accountId={accountId}
          request={request}
          opened
          onClose={() => setDialog(null)}
          onExtended={(extended) => {
            setDialog(null);
            notify.success('Due date extended', `Now due ${formatDay(extended.dueAt)}.`);
            focusHeadingIfLost();
          }}
        />
      )}
    </>
  );
}

/**
 * Settings → Privacy requests → one request (issue #37 item 3; owners only, the route checks): loading, not found (an
 * unknown id, or another account's), a failed read with Try again, else the request. While it runs, it is read again
 * until answered.
 */
export function PrivacyRequestDetail({
  membership,
  requestId,
}: {
  membership: Membership;
  requestId: string;
}) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const query = useQuery(privacyRequestQueryOptions(api, accountId, requestId));
  const notFound = query.error instanceof NotFoundError;
  usePageTitle(notFound ? 'Privacy request not found' : 'Privacy request');

  let body: ReactNode;
  if (query.data) body = <RequestView accountId={accountId} request={query.data} />;
  else if (notFound)
    body = (
      <EmptyState icon={<IconShieldLock />} title="No such privacy request">
        It may have been removed: the log of requests is kept 24 months.
      </EmptyState>
    );
  else if (query.isError)
    body = (
      <RetryAlert
        title="The privacy request could not be loaded"
        error={query.error}
        onRetry={query.refetch}
        retrying={query.isFetching}
      />
    );
  else
    body = (
      <Stack gap="md" role="group" aria-busy="true" aria-label="Loading privacy request">
        <Skeleton height={200} radius="md" />
        <Skeleton height={120} radius="md" />
      </Stack>
    );

  return (
    <Stack gap="md" maw={1100}>
      <AnchorLink
        to="/settings/privacy-requests"
        search={privacyRequestSearchDefaults}
        size="sm"
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={16} aria-hidden="true" />
        Privacy requests
      </AnchorLink>
      {body}
    </Stack>
  );
}
