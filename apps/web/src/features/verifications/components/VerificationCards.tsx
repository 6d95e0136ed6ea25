import { Badge, Group, Stack, Text } from '@mantine/core';
import type { VerificationSort } from '@veriform/contracts';
import { verificationSorts } from '@veriform/contracts';
import { CardFields, DataCards } from '../../../components/data-list/DataList';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime, methodLabels } from '../../../lib/format';
import { sourceLabels } from '../source';
import {
  dimmedDash,
  PhoneLink,
  useOpenVerificationOnClick,
  type VerificationRowsProps,
} from './VerificationsTable';

/** The sort control's words for SPEC §2's `o` values (the cards have no column headers to click). */
export const sortLabels: Record<VerificationSort, string> = {
  '-created': 'Newest first',
  created: 'Oldest first',
  cellPhone: 'Cell phone, ascending',
  '-cellPhone': 'Cell phone, descending',
  externalRefId: 'External ref, A to Z',
  '-externalRefId': 'External ref, Z to A',
  verifyFormId: 'Form ID, ascending',
  '-verifyFormId': 'Form ID, descending',
  verifyFormName: 'Form, A to Z',
  '-verifyFormName': 'Form, Z to A',
  verifyFormCategory: 'Category, A to Z',
  '-verifyFormCategory': 'Category, Z to A',
};

const sortOptions = [
  '-created' as const,
  'created' as const,
  ...verificationSorts.filter((o) => o !== 'created' && o !== '-created'),
].map((o) => ({ value: o, label: sortLabels[o] }));

const isSort = (value: string | null): value is VerificationSort =>
  verificationSorts.some((o) => o === value);

/**
 * The activity log on small screens (VerificationList picks it): one card per verification with every column of the
 * table, nothing to scroll sideways, and a Sort by control in place of the clickable headers. The phone number is the
 * link to the verification; a tap elsewhere on the card opens it too.
 */
export function VerificationCards({ verifications, search, onSort, busy = false }: VerificationRowsProps) {
  const open = useOpenVerificationOnClick(search);
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <LabelledSelect
          label="Sort by"
          data={sortOptions}
          value={search.o}
          onChange={(value) => isSort(value) && onSort(value)}
          w={220}
        />
      </Group>
      <DataCards
        label="Verifications"
        rows={verifications}
        rowKey={(v) => v.id}
        busy={busy}
        cardProps={(v) => ({ onClick: open(v), style: { cursor: 'pointer' } })}
        card={(v) => (
          <>
            <Group justify="space-between" gap="xs" wrap="wrap" mb="xs">
              <PhoneLink verification={v} search={search} />
              <Text size="sm" c="dimmed">
                <time dateTime={v.created}>{formatDateTime(v.created)}</time>
              </Text>
            </Group>
            <CardFields>
              <DetailField label="External ref">{v.externalRefId || dimmedDash()}</DetailField>
              <DetailField label="Method">{methodLabels[v.verificationMethod]}</DetailField>
              <DetailField label="Form">
                {v.verifyFormName}{' '}
                <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  ID {v.verifyFormId}
                </Text>
              </DetailField>
              <DetailField label="Category">
                {v.verifyFormCategory ? (
                  <Badge variant="light" color="gray" tt="none" maw="100%">
                    {v.verifyFormCategory}
                  </Badge>
                ) : (
                  dimmedDash()
                )}
              </DetailField>
              <DetailField label="Source">{sourceLabels[v.source]}</DetailField>
            </CardFields>
          </>
        )}
      />
    </Stack>
  );
}
