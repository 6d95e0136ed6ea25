import { Anchor, Group, Text } from '@mantine/core';
import { type AuditEventListItem, auditActionLabels } from '@veriform/contracts';
import type { MouseEvent } from 'react';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
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

const eventColumns = (onOpen: (event: AuditEventListItem) => void): DataColumn<AuditEventListItem>[] => [
  { label: 'Time', cell: (event) => <Time event={event} />, td: { style: { whiteSpace: 'nowrap' } } },
  { label: 'Actor', cell: (event) => <Actor event={event} />, td: { style: { overflowWrap: 'anywhere' } } },
  { label: 'Action', cell: (event) => <OpenButton event={event} onOpen={onOpen} /> },
  { label: 'Target', cell: (event) => <Target event={event} />, td: { style: { overflowWrap: 'anywhere' } } },
  { label: 'IP', cell: (event) => <Ip event={event} />, td: { style: { overflowWrap: 'anywhere' } } },
];

/** The audit log's rows, newest first: a table on wide screens, cards on small ones (as the activity log does). */
export function AuditEventList({ events, onOpen, busy = false }: AuditEventRowsProps) {
  const opens = (event: AuditEventListItem) => ({
    onClick: openOnClick(event, onOpen),
    style: { cursor: 'pointer' },
  });
  return (
    <DataList
      label="Audit events"
      rows={events}
      rowKey={(event) => event.id}
      busy={busy}
      columns={eventColumns(onOpen)}
      minWidth={720}
      highlightOnHover
      rowProps={opens}
      cardProps={opens}
      card={(event) => (
        // Small screens: every column of the table, nothing to scroll sideways.
        <>
          <Group justify="space-between" gap="xs" wrap="wrap" mb="xs">
            <OpenButton event={event} onOpen={onOpen} />
            <Text size="sm" c="dimmed">
              <Time event={event} />
            </Text>
          </Group>
          <CardFields>
            <DetailField label="Actor">
              <Actor event={event} />
            </DetailField>
            <DetailField label="Target">
              <Target event={event} />
            </DetailField>
            <DetailField label="IP">
              <Ip event={event} />
            </DetailField>
          </CardFields>
        </>
      )}
    />
  );
}

/** The placeholder while a page of events loads, shaped as the rows will be so nothing moves when they arrive. */
export function AuditEventListSkeleton({ rows = 5 }: { rows?: number }) {
  return <ListSkeleton label="Loading audit events" columns={columns} rows={rows} />;
}
