import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  AUDIT_PAGE_SIZE_MAX,
  type AuditEventListItem,
  type AuditSearch,
  type AuditTarget,
  type Membership,
} from '@veriform/contracts';
import { useState } from 'react';
import { ListStates } from '../../../components/data-list/ListStates';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { PermissionDeniedError } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { browserTimeZone } from '../../../lib/time-zone';
import { auditEventListQueryOptions, auditExportUrl, auditKeys, auditListParams } from '../api';
import { actorLabel, actorTypeLabels, targetTypeLabels } from '../format';
import { AuditEventDrawer } from './AuditEventDrawer';
import { AuditEventList, AuditEventListSkeleton } from './AuditEventList';
import {
  type AuditFilterPatch,
  AuditFilters,
  clearedAuditFilters,
  hasActiveAuditFilters,
} from './AuditFilters';
import { AuditRetention } from './AuditRetention';

export const NOTHING_RECORDED = 'Nothing recorded yet';
export const NO_MATCH = 'No audit events match these filters';

const pageSizes = [10, 25, 50, AUDIT_PAGE_SIZE_MAX] as const;

/** The chip of an actor id: the actor as the rows name it, else by kind and id (a link shared from another page). */
function actorChip(search: AuditSearch, events: readonly AuditEventListItem[]): string | null {
  if (!search.actorId) return null;
  const byActor = events.find(
    (e) => e.actor.id === search.actorId && (!search.actorType || e.actor.type === search.actorType),
  );
  if (byActor) return `Actor: ${actorLabel(byActor)}`;
  return `Actor: ${search.actorType ? actorTypeLabels[search.actorType] : 'ID'} ${search.actorId}`;
}

function targetChip(search: AuditSearch, events: readonly AuditEventListItem[]): string | null {
  if (!search.targetId) return null;
  const target = events
    .flatMap((e) => e.targets.slice(0, 1))
    .find((t) => t.id === search.targetId && (!search.targetType || t.type === search.targetType));
  const kind = search.targetType ? targetTypeLabels[search.targetType] : 'Target';
  return target ? `${kind}: ${target.name}` : `${kind} ID ${search.targetId}`;
}

export interface AuditLogProps {
  membership: Membership;
  search: AuditSearch;
  /** Merges a patch into the URL's search params; `replace` for filters, a new history entry for pages. */
  onSearch: (patch: Partial<AuditSearch>, options?: { replace?: boolean }) => void;
}

/**
 * Settings → Audit log (issue #16; owners only, the route checks): the account's events newest first, filtered and
 * paged in the URL, one event's every field in a drawer, and the matching events as a CSV or JSON Lines file.
 */
export function AuditLog({ membership, search, onSearch }: AuditLogProps) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useQuery({
    ...auditEventListQueryOptions(api, accountId, auditListParams(search)),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === auditKeys.all(accountId)[1] ? previous : undefined,
  });
  const [opened, setOpened] = useState<AuditEventListItem | null>(null);
  const forbidden = isError && error instanceof PermissionDeniedError;
  usePageTitle(forbidden ? 'Access denied' : 'Audit log');
  // A role changed meanwhile (no longer an owner): the page says so as other pages do.
  if (forbidden) return <ForbiddenScreen />;

  // Filters send the reader back to page 1 (page 7 of another result set means nothing).
  const filter = (patch: AuditFilterPatch) => onSearch({ ...patch, pageNumber: 1 }, { replace: true });
  const goToPage = (pageNumber: number) => onSearch({ pageNumber });
  const setPageSize = (pageSize: number) => onSearch({ pageSize, pageNumber: 1 });
  const showActor = (event: AuditEventListItem) => {
    setOpened(null);
    filter({ actorType: event.actor.type, actorId: event.actor.id ?? undefined });
  };
  const showTarget = (target: AuditTarget) => {
    setOpened(null);
    filter({ targetType: target.type, targetId: target.id });
  };

  const filtered = hasActiveAuditFilters(search);
  const nothingRecorded = data !== undefined && data.count === 0 && !filtered && !isPlaceholderData;
  const events = data?.results ?? [];

  const body = (
    <ListStates
      query={{ data, isPending, isError, error, refetch, isPlaceholderData, isFetching }}
      skeleton={<AuditEventListSkeleton />}
      icon={<IconHistory />}
      errorTitle="The audit log could not be loaded"
      never={
        nothingRecorded
          ? {
              title: NOTHING_RECORDED,
              text: 'Sign-ins, changes to the team, the company and forms, exports and API keys will be listed here as they happen.',
            }
          : undefined
      }
      noMatch={{
        title: NO_MATCH,
        text: 'Try another action or date range, or clear the filters to see every event.',
        onClear: () => filter(clearedAuditFilters),
      }}
      // A bookmarked page past the end (the page size grew, or retention removed old events).
      rowsNoun="events"
      pager={{
        pageNumber: search.pageNumber,
        pageSize: search.pageSize,
        pageSizes,
        onPage: goToPage,
        onPageSize: setPageSize,
      }}
    >
      {(rows, busy) => <AuditEventList events={rows} onOpen={setOpened} busy={busy} />}
    </ListStates>
  );

  return (
    <Stack gap={0}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm" mb="md">
        <div>
          <Title order={2} size="h4">
            Audit log
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            Who did what in {membership.account.displayName}, when and from where. Times are in your time
            zone, {browserTimeZone()}.
          </Text>
          <Box mt="sm">
            <AuditRetention accountId={accountId} />
          </Box>
        </div>
        {!nothingRecorded && (
          <Group gap="sm" wrap="wrap">
            {/* Plain links: the browser saves the stream itself, however many events match. */}
            <Button
              component="a"
              href={auditExportUrl(accountId, search, 'csv')}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
            >
              Export CSV
            </Button>
            <Button
              component="a"
              href={auditExportUrl(accountId, search, 'jsonl')}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
            >
              Export JSON Lines
            </Button>
          </Group>
        )}
      </Group>
      {!nothingRecorded && (
        <AuditFilters
          value={search}
          onChange={filter}
          actorChip={actorChip(search, events)}
          targetChip={targetChip(search, events)}
        />
      )}
      {body}
      <AuditEventDrawer
        event={opened}
        onClose={() => setOpened(null)}
        onShowActor={showActor}
        onShowTarget={showTarget}
      />
    </Stack>
  );
}
