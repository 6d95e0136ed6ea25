import { TextInput } from '@mantine/core';
import type { DatePreset } from '@veriform/contracts';
import { LabelledSelect } from './LabelledSelect';

/**
 * A `created` date filter as the list APIs take it (SPEC §2): a preset (last 7 days, this month…), or `custom` with
 * its own first and last day (YYYY-MM-DD).
 */
export interface CreatedDateRange<P extends string> {
  created__date__preset: P;
  created__date__gte?: string;
  created__date__lte?: string;
}

/** The words of SPEC §2's date presets, in every filter bar that offers them. */
export const datePresetLabels: Record<DatePreset, string> = {
  all: 'All time',
  today: 'Today',
  yesterday: 'Yesterday',
  last3d: 'Last 3 days',
  last7d: 'Last 7 days',
  last30d: 'Last 30 days',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  custom: 'Custom range',
};

/**
 * The date-range control of the filter bars (the forms list, the activity log, the dashboard, the audit log): the
 * preset select, then From and To while the custom range is chosen. `onChange` gets a patch of the search params
 * (picking a preset drops the custom days). A fragment, so its fields wrap with the bar's others.
 */
export function DateRangeFilter<P extends string>({
  label = 'Created',
  options,
  value,
  onChange,
}: {
  label?: string;
  options: readonly { value: P; label: string }[];
  value: CreatedDateRange<P>;
  onChange: (patch: Partial<CreatedDateRange<P>>) => void;
}) {
  return (
    <>
      <LabelledSelect
        label={label}
        data={options.map((option) => ({ ...option }))}
        value={value.created__date__preset}
        onChange={(picked) => {
          const option = options.find((o) => o.value === picked);
          if (option)
            onChange({
              created__date__preset: option.value,
              created__date__gte: undefined,
              created__date__lte: undefined,
            });
        }}
        w={170}
      />
      {value.created__date__preset === 'custom' && (
        <>
          <DateBound
            label="From"
            value={value.created__date__gte}
            max={value.created__date__lte}
            onChange={(date) => onChange({ created__date__gte: date })}
          />
          <DateBound
            label="To"
            value={value.created__date__lte}
            min={value.created__date__gte}
            onChange={(date) => onChange({ created__date__lte: date })}
          />
        </>
      )}
    </>
  );
}

/** One end of a custom range: a date field whose empty value is no bound (`undefined`). */
function DateBound(props: {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (date: string | undefined) => void;
}) {
  return (
    <TextInput
      label={props.label}
      type="date"
      value={props.value ?? ''}
      min={props.min}
      max={props.max}
      onChange={(event) => props.onChange(event.currentTarget.value || undefined)}
      w={160}
    />
  );
}
