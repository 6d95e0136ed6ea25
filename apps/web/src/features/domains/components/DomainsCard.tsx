import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconCheck,
  IconCopy,
  IconRefresh,
  IconTrash,
  IconWorldCheck,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type AccountDomain, can, type Membership } from '@veriform/contracts';
import { type ReactNode, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { SectionCard } from '../../../components/layout/SectionCard';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { domainsQueryOptions, useCheckDomainMutation, useRemoveDomainMutation } from '../api';
import { AddDomainModal } from './AddDomainModal';

export const DOMAINS_INTRO =
  'Prove that the company controls its website’s domain. Certificates and your public pages then show the verified domain beside the company’s name; until then, certificates say the name is not verified.';

const PROOF_LABELS = { dns: 'the DNS TXT record', file: 'the file' } as const;

/** A value to publish, read-only, with a copy button (the tooltip for the eyes, a status line for screen readers). */
function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <TextInput
          label={label}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          rightSection={
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
              >
                {copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )}
              </ActionIcon>
            </Tooltip>
          }
        />
      )}
    </CopyButton>
  );
}

/** What a failed check found, line by line (the 400's messages), or why it could not run (429, network). */
function CheckFailure({ error }: { error: unknown }) {
  const lines =
    error instanceof ApiValidationError && error.nonFieldErrors.length > 0
      ? error.nonFieldErrors
      : [errorDisplayText(error)];
  return (
    <Alert
      color="orange"
      c="dark.6"
      icon={<IconAlertCircle aria-hidden="true" />}
      title="Not verified yet"
      role="alert"
    >
      <Stack gap={4}>
        {lines.map((line) => (
          <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {line}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

function DomainItem({
  domain,
  owner,
  checking,
  checkError,
  onCheck,
  onRemove,
}: {
  domain: AccountDomain;
  owner: boolean;
  checking: boolean;
  /** The failure of this domain's last check in this visit (the mutation's error), if any. */
  checkError: unknown;
  onCheck: () => void;
  onRemove: () => void;
}) {
  const verified = domain.verifiedAt !== null;
  return (
    <Paper withBorder radius="sm" p="sm" component="article" aria-label={domain.domain}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {domain.domain}
          </Text>
          {verified ? (
            <Badge
              color="green"
              variant="light"
              leftSection={<IconWorldCheck size={14} aria-hidden="true" />}
            >
              Verified
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              Not verified
            </Badge>
          )}
        </Group>
        {verified && domain.verifiedAt ? (
          <Text size="sm" c="dimmed">
            Verified <time dateTime={domain.verifiedAt}>{formatDateTime(domain.verifiedAt)}</time> by{' '}
            {domain.verifiedBy ? PROOF_LABELS[domain.verifiedBy] : 'a proof'}.
          </Text>
        ) : (
          <>
            <Text size="sm">
              Publish one of these, then check. A DNS record may take a while to be seen; the file must answer
              at exactly this address over HTTPS.
            </Text>
            <Stack gap="xs">
              <Text size="sm" fw={500}>
                A DNS TXT record
              </Text>
              <Group grow preventGrowOverflow={false} gap="sm" wrap="wrap" align="flex-start">
                <CopyField label="Name" value={domain.dnsRecord.name} />
                <CopyField label="Value" value={domain.dnsRecord.value} />
              </Group>
              <Text size="sm" fw={500}>
                Or a file holding the same value
              </Text>
              <CopyField label="File address" value={domain.fileUrl} />
            </Stack>
            {checkError ? (
              <CheckFailure error={checkError} />
            ) : (
              domain.lastCheckedAt &&
              domain.lastCheckResult && (
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  Last checked{' '}
                  <time dateTime={domain.lastCheckedAt}>{formatDateTime(domain.lastCheckedAt)}</time>:{' '}
                  {domain.lastCheckResult}
                </Text>
              )
            )}
          </>
        )}
        {owner && (
          <Group gap="sm">
            {!verified && (
              <Button
                onClick={onCheck}
                loading={checking}
                leftSection={<IconRefresh size={16} aria-hidden="true" />}
                aria-label={`Check now: ${domain.domain}`}
              >
                Check now
              </Button>
            )}
            <Button
              variant="default"
              color="red"
              onClick={onRemove}
              leftSection={<IconTrash size={16} aria-hidden="true" />}
              aria-label={`Remove ${domain.domain}`}
            >
              Remove
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Company Info's domains (issue #33 item 10): every member sees them and whether they are verified; owners add one,
 * publish its token as a DNS TXT record or a file, check it, and remove it.
 */
export function DomainsCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const owner = can(membership, 'manageCompany');
  const { api } = useServices();
  const { data: domains, error, isPending } = useQuery(domainsQueryOptions(api, accountId));
  const check = useCheckDomainMutation(accountId);
  const remove = useRemoveDomainMutation(accountId);
  const [adding, setAdding] = useState(false);
  const [toRemove, setToRemove] = useState<AccountDomain | null>(null);

  const runCheck = (domain: AccountDomain) => {
    if (check.isPending) return;
    check.mutate(domain.id, {
      onSuccess: (checked) => {
        if (checked.verifiedAt) notify.success('Domain verified', `${checked.domain} is verified.`);
      },
    });
  };

  const confirmRemove = () => {
    if (!toRemove) return;
    const name = toRemove.domain;
    remove.mutate(toRemove.id, {
      onSuccess: () =>
        notify.success('Domain removed', `${name} is no longer shown with the company’s name.`),
      onError: (failure) => notify.error('Failed to remove the domain', errorDisplayText(failure)),
      onSettled: () => setToRemove(null),
    });
  };

  let list: ReactNode;
  if (isPending) {
    list = (
      <Stack gap="xs" role="group" aria-busy="true" aria-label="Loading domains">
        <Skeleton height={48} radius="sm" />
      </Stack>
    );
  } else if (!domains) {
    list = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        {errorDisplayText(error)}
      </Alert>
    );
  } else if (domains.length === 0) {
    list = (
      <Text size="sm" c="dimmed">
        No domains yet.{owner ? ' Add the domain of the company’s website to verify it.' : ''}
      </Text>
    );
  } else {
    list = (
      <Stack gap="sm">
        {domains.map((domain) => {
          const mine = check.variables === domain.id;
          return (
            <DomainItem
              key={domain.id}
              domain={domain}
              owner={owner}
              checking={check.isPending && mine}
              checkError={mine ? check.error : null}
              onCheck={() => runCheck(domain)}
              onRemove={() => setToRemove(domain)}
            />
          );
        })}
      </Stack>
    );
  }

  return (
    <SectionCard title="Domains" maw={720}>
      <Text size="sm" c="dimmed">
        {DOMAINS_INTRO}
      </Text>
      {list}
      {owner ? (
        <Group>
          <Button variant="light" onClick={() => setAdding(true)}>
            Add domain
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Only owners can add, check or remove domains.
        </Text>
      )}
      {owner && (
        <AddDomainModal
          accountId={accountId}
          opened={adding}
          onClose={() => setAdding(false)}
          onAdded={(domain) => {
            setAdding(false);
            notify.success('Domain added', `Publish its record or file, then check ${domain.domain}.`);
          }}
        />
      )}
      <ConfirmModal
        opened={toRemove !== null}
        title={toRemove ? `Remove ${toRemove.domain}?` : ''}
        confirmLabel="Remove"
        onConfirm={confirmRemove}
        onCancel={() => setToRemove(null)}
        loading={remove.isPending}
      >
        Certificates issued from now on will not name it. Certificates already issued keep the domains they
        were signed with.
      </ConfirmModal>
    </SectionCard>
  );
}
