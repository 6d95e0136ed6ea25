import { Anchor, Box, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { type AuditEventListItem, auditActionLabels } from '@veriform/contracts';
import type { MouseEvent } from 'react';
import { DetailField } from '../../../components/layout/DetailField';
import { useCompactLayout } from '../../../lib/use-compact-layout';
import { actorText, formatEventTime, targetTypeLabels } from '../format';

export interface AuditEventRowsProps {
  events: readonly AuditEventListItem[];
  onOpen: (event: AuditEventListItem) => void;
  /** The next page is loading while this one stays on screen. */
  busy?: boolean;
}

const columns = ['Time', 'Actor', 'Action', 'Target', 'IP'] as const;

function dimmedDash() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

/**
 * The action in words is the row's button: reachable by Tab, named by what happened, and it opens the drawer. A click
 * anywhere else on the row does the same for the mouse, unless text is being selected (an IP to copy).
 */
function OpenButton({
  event,
  onOpen,
}: {
  event: AuditEventListItem;
  onOpen: (event: AuditEventListItem) => void;
}) {
  return (
    <Anchor
      component="button"
      type="button"
      fw={500}
      size="sm"
      ta="left"
      aria-haspopup="dialog"
      onClick={() => onOpen(event)}
    >
      {auditActionLabels[event.action]}
    </Anchor>
  );
}

const openOnClick =
  (event: AuditEventListItem, onOpen: (event: AuditEventListItem) => void) => (click: MouseEvent) => {
    if ((click.target as Element).closest('button') || window.getSelection()?.toString()) return;
    onOpen(event);
  };

function Time({ event }: { event: AuditEventListItem }) {
  return <time dateTime={event.occurredAt}>{formatEventTime(event.occurredAt)}</time>;
}

/** The first target (what the filters read), by name with its kind; more targets are counted. */
function Target({ event }: { event: AuditEventListItem }) {
  const [first, ...others] = event.targets;
  if (!first) return dimmedDash();
  return (
    <>
      <span>{first.name}</span>{' '}
      <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {targetTypeLabels[first.type]}
        {others.length > 0 && ` · ${others.length} more`}
      </Text>
    </>
  );
}

/**
 * Who acted: a person by name, with the e-mail recorded at the time under it (a deleted user, or one without a name,
 * by that e-mail alone); an API key by its prefix; Veriform.
 */
export function Actor({ event }: { event: AuditEventListItem }) {
  if (event.actor.type !== 'user' || !event.actorUserName) return <>{actorText(event.actor)}</>;
  return (
    <>
      <span>{event.actorUserName}</span>{' '}
      <Text span display="block" size="xs" c="dimmed">
        {event.actor.name}
      </Text>
    </>
  );
}

function Ip({ event }: { event: AuditEventListItem }) {
  return event.ip ? (
    <Text span size="sm" ff="monospace">
      {event.ip}
    </Text>
  ) : (
    dimmedDash()
  );
}

function AuditEventsTable({ events, onOpen, busy = false }: AuditEventRowsProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table
        aria-label="Audit events"
        aria-busy={busy || undefined}
        verticalSpacing="sm"
        highlightOnHover
        style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((label) => (
              <Table.Th key={label} scope="col">
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id} onClick={openOnClick(event, onOpen)} style={{ cursor: 'pointer' }}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Time event={event} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Actor event={event} />
              </Table.Td>
              <Table.Td>
                <OpenButton event={event} onOpen={onOpen} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Target event={event} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Ip event={event} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One labelled value of a card (a definition list keeps each label with its value for screen readers). */

const fieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: 'var(--mantine-spacing-xs) var(--mantine-spacing-md)',
  margin: 0,
} as const;

/** Small screens: one card per event with every column of the table, nothing to scroll sideways. */
function AuditEventCards({ events, onOpen, busy = false }: AuditEventRowsProps) {
  return (
    <Stack
      component="ul"
      // list-style none drops the list role in some browsers: say it.
      role="list"
      aria-label="Audit events"
      aria-busy={busy || undefined}
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none', opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {events.map((event) => (
        <Paper
          key={event.id}
          component="li"
          withBorder
          radius="md"
          p="sm"
          onClick={openOnClick(event, onOpen)}
          style={{ cursor: 'pointer' }}
        >
          <Group justify="space-between" gap="xs" wrap="wrap" mb="xs">
            <OpenButton event={event} onOpen={onOpen} />
            <Text size="sm" c="dimmed">
              <Time event={event} />
            </Text>
          </Group>
          <Box component="dl" style={fieldGrid}>
            <DetailField label="Actor">
              <Actor event={event} />
            </DetailField>
            <DetailField label="Target">
              <Target event={event} />
            </DetailField>
            <DetailField label="IP">
              <Ip event={event} />
            </DetailField>
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}

/** The audit log's rows, newest first: a table on wide screens, cards on small ones (as the activity log does). */
export function AuditEventList(props: AuditEventRowsProps) {
  return useCompactLayout() ? <AuditEventCards {...props} /> : <AuditEventsTable {...props} />;
}

/** The placeholder while a page of events loads, shaped as the rows will be so nothing moves when they arrive. */
export function AuditEventListSkeleton({ rows = 5 }: { rows?: number }) {
  const compact = useCompactLayout();
  if (compact)
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading audit events">
        {Array.from({ length: rows }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Paper key={row} withBorder radius="md" p="sm">
            <Skeleton height={16} width="55%" radius="sm" mb="sm" />
            <Skeleton height={12} radius="sm" mb={6} />
            <Skeleton height={12} width="80%" radius="sm" />
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table aria-label="Loading audit events" aria-busy="true">
      <Table.Thead>
        <Table.Tr>
          {columns.map((label) => (
            <Table.Th key={label} scope="col">
              {label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Array.from({ length: rows }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Table.Tr key={row}>
            {columns.map((label) => (
              <Table.Td key={label}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
