import {
  ActionIcon,
  Box,
  Button,
  Code,
  CopyButton,
  Drawer,
  Group,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconFilter } from '@tabler/icons-react';
import { type AuditEventListItem, type AuditTarget, auditActionLabels } from '@veriform/contracts';
import { DetailField } from '../../../components/layout/DetailField';
import {
  actorTypeLabels,
  formatEventTimeFull,
  shortHash,
  splitChanges,
  targetTypeLabels,
  valueText,
} from '../format';
import { Actor } from './AuditEventList';

function NotRecorded() {
  return (
    <Text span size="sm" c="dimmed">
      Not recorded
    </Text>
  );
}

/** A value of a change: an empty one says so rather than showing nothing. */
function ChangeValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '')
    return (
      <Text span size="sm" c="dimmed">
        (none)
      </Text>
    );
  return <>{valueText(value)}</>;
}

/** A hash shortened for the eye, with the whole of it one click away (and in the title, for hovering). */
function Hash({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text span size="sm" ff="monospace" title={value}>
        {shortHash(value)}
      </Text>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              aria-label={`Copy ${label.toLowerCase()}`}
              onClick={copy}
            >
              {copied ? (
                <IconCheck size={14} aria-hidden="true" />
              ) : (
                <IconCopy size={14} aria-hidden="true" />
              )}
            </ActionIcon>
            <VisuallyHidden role="status" aria-live="polite">
              {copied ? `${label} copied` : ''}
            </VisuallyHidden>
          </>
        )}
      </CopyButton>
    </Group>
  );
}

function Changes({ event }: { event: AuditEventListItem }) {
  const { pairs, details } = splitChanges(event.changes);
  if (pairs.length === 0 && details.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Changes
      </Title>
      {pairs.length > 0 && (
        <Table aria-label="Changes" withTableBorder verticalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Field</Table.Th>
              <Table.Th scope="col">Before</Table.Th>
              <Table.Th scope="col">After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pairs.map((pair) => (
              <Table.Tr key={pair.field}>
                <Table.Th scope="row" fw={500}>
                  <Code>{pair.field}</Code>
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <ChangeValue value={pair.before} />
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <ChangeValue value={pair.after} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {details.length > 0 && (
        <Stack component="dl" gap="xs" m={0} aria-label="Details">
          {details.map(([key, value]) => (
            <DetailField key={key} label={key}>
              <Text span size="sm" ff="monospace">
                <ChangeValue value={value} />
              </Text>
            </DetailField>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function Target({ target }: { target: AuditTarget }) {
  return (
    <Text component="li" size="sm" style={{ overflowWrap: 'anywhere' }}>
      {target.name}{' '}
      <Text span size="xs" c="dimmed">
        {targetTypeLabels[target.type]} · ID {target.id}
      </Text>
    </Text>
  );
}

export interface AuditEventDrawerProps {
  event: AuditEventListItem | null;
  onClose: () => void;
  /** "Show all by this actor": the page filters by the actor's type and id and closes the drawer. */
  onShowActor: (event: AuditEventListItem) => void;
  /** "Show all for this target": the same for the first target (the one the filters read). */
  onShowTarget: (target: AuditTarget) => void;
}

/** Every field of one event: what a reviewer checks (who, what, from where) and what the chain check reads. */
export function AuditEventDrawer({ event, onClose, onShowActor, onShowTarget }: AuditEventDrawerProps) {
  const firstTarget = event?.targets[0];
  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={event ? auditActionLabels[event.action] : ''}
      closeButtonProps={{ 'aria-label': 'Close details' }}
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {event && (
        <Stack gap="lg">
          <Box component="dl" m={0} style={{ display: 'grid', gap: 'var(--mantine-spacing-sm)' }}>
            <DetailField label="Time">
              <time dateTime={event.occurredAt}>{formatEventTimeFull(event.occurredAt)}</time>
              <Text span display="block" size="xs" c="dimmed" ff="monospace">
                {event.occurredAt}
              </Text>
            </DetailField>
            <DetailField label="Actor">
              <Actor event={event} />{' '}
              <Text span size="xs" c="dimmed">
                {actorTypeLabels[event.actor.type]}
                {event.actor.id !== null && ` · ID ${event.actor.id}`}
              </Text>
            </DetailField>
            <DetailField label="Action">
              {auditActionLabels[event.action]} <Code>{event.action}</Code>
            </DetailField>
            <DetailField label={event.targets.length === 1 ? 'Target' : 'Targets'}>
              {event.targets.length === 0 ? (
                <NotRecorded />
              ) : (
                <Stack component="ul" gap={2} p={0} m={0} style={{ listStyle: 'none' }} role="list">
                  {event.targets.map((target) => (
                    <Target key={`${target.type}:${target.id}`} target={target} />
                  ))}
                </Stack>
              )}
            </DetailField>
            <DetailField label="IP address">{event.ip ?? <NotRecorded />}</DetailField>
            <DetailField label="User agent">{event.userAgent ?? <NotRecorded />}</DetailField>
            <DetailField label="Request ID">
              {event.requestId ? (
                <Text span size="sm" ff="monospace">
                  {event.requestId}
                </Text>
              ) : (
                <NotRecorded />
              )}
            </DetailField>
            <DetailField label="Sequence">{event.sequence}</DetailField>
            <DetailField label="Hash">
              <Hash label="Hash" value={event.hash} />
            </DetailField>
            <DetailField label="Previous hash">
              <Hash label="Previous hash" value={event.prevHash} />
            </DetailField>
          </Box>
          <Changes event={event} />
          <Group gap="sm" wrap="wrap">
            {event.actor.id !== null && (
              <Button
                variant="default"
                leftSection={<IconFilter size={16} aria-hidden="true" />}
                onClick={() => onShowActor(event)}
              >
                Show all by this actor
              </Button>
            )}
            {firstTarget && (
              <Button
                variant="default"
                leftSection={<IconFilter size={16} aria-hidden="true" />}
                onClick={() => onShowTarget(firstTarget)}
              >
                Show all for this target
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
