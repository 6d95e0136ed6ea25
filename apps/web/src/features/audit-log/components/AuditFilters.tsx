import { Badge, CloseButton, Group } from '@mantine/core';
import {
  type AuditFilter,
  auditActionSchema,
  auditActorTypeSchema,
  auditTargetTypeSchema,
  type DatePreset,
  datePresets,
} from '@veriform/contracts';
import { DateRangeFilter, datePresetLabels } from '../../../components/form/DateRangeFilter';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { actionOptions, actorTypeOptions, targetTypeOptions } from '../format';

/**
 * The audit log's filter bar, controlled as the activity log's is: `value` is the route's validated search, and
 * `onChange` gets a patch the route merges into the URL (bookmarkable, Back and Forward work). The actor and target
 * ids have no field of their own: they come from the detail drawer and show as removable chips.
 */
export type AuditFilterPatch = Partial<AuditFilter>;

export function hasActiveAuditFilters(filter: AuditFilter): boolean {
  return (
    filter.action !== undefined ||
    filter.actorType !== undefined ||
    Boolean(filter.actorId) ||
    filter.targetType !== undefined ||
    Boolean(filter.targetId) ||
    filter.created__date__preset !== 'all'
  );
}

export const clearedAuditFilters: AuditFilterPatch = {
  action: undefined,
  actorType: undefined,
  actorId: undefined,
  targetType: undefined,
  targetId: undefined,
  created__date__preset: 'all',
  created__date__gte: undefined,
  created__date__lte: undefined,
};

const presetOptions = datePresets.map((p: DatePreset) => ({ value: p, label: datePresetLabels[p] }));

function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Badge
      component="li"
      variant="light"
      color="gray"
      c="dark.6"
      tt="none"
      size="lg"
      radius="sm"
      maw="100%"
      pr={2}
      rightSection={<CloseButton size="sm" aria-label={`Remove filter ${label}`} onClick={onRemove} />}
    >
      {label}
    </Badge>
  );
}

export interface AuditFiltersProps {
  value: AuditFilter;
  onChange: (patch: AuditFilterPatch) => void;
  /** The words of the chips of an actor or target id ("Actor: ada@example.com"). */
  actorChip: string | null;
  targetChip: string | null;
}

export function AuditFilters({ value, onChange, actorChip, targetChip }: AuditFiltersProps) {
  return (
    <>
      <Group align="flex-end" gap="sm" wrap="wrap" mb="md" role="search" aria-label="Filter audit events">
        <LabelledSelect
          label="Action"
          data={actionOptions}
          value={value.action ?? 'all'}
          searchable
          onChange={(picked) => onChange({ action: auditActionSchema.safeParse(picked).data })}
          w={250}
        />
        <LabelledSelect
          label="Actor type"
          data={actorTypeOptions}
          value={value.actorType ?? 'all'}
          // An actor id belongs to its type: another type drops it.
          onChange={(picked) =>
            onChange({ actorType: auditActorTypeSchema.safeParse(picked).data, actorId: undefined })
          }
          w={140}
        />
        <LabelledSelect
          label="Target type"
          data={targetTypeOptions}
          value={value.targetType ?? 'all'}
          onChange={(picked) =>
            onChange({ targetType: auditTargetTypeSchema.safeParse(picked).data, targetId: undefined })
          }
          w={160}
        />
        <DateRangeFilter label="Date" options={presetOptions} value={value} onChange={onChange} />
      </Group>
      {(actorChip || targetChip) && (
        <Group
          component="ul"
          aria-label="Chosen actor and target"
          gap="xs"
          p={0}
          mt={0}
          mx={0}
          mb="md"
          style={{ listStyle: 'none' }}
          // list-style none drops the list role in some browsers: say it.
          role="list"
        >
          {actorChip && (
            <FilterChip
              label={actorChip}
              onRemove={() => onChange({ actorType: undefined, actorId: undefined })}
            />
          )}
          {targetChip && (
            <FilterChip
              label={targetChip}
              onRemove={() => onChange({ targetType: undefined, targetId: undefined })}
            />
          )}
        </Group>
      )}
    </>
  );
}
