import { type DeliveryStatus, deliveryStatusSchema } from '@veriform/contracts';
import { AnyOfFilter } from '../../../components/form/AnyOfFilter';
import { deliveryStatusLabels } from '../labels';

const options = deliveryStatusSchema.options.map((status) => ({
  value: status,
  label: deliveryStatusLabels[status],
}));

const isDeliveryStatus = (value: string): value is DeliveryStatus =>
  deliveryStatusSchema.options.some((s) => s === value);

/** The attempts' own filter, beside the log's: any of the chosen statuses (none chosen: every status). */
export function DeliveryStatusFilter({
  value,
  onChange,
}: {
  value: readonly DeliveryStatus[] | undefined;
  onChange: (statuses: DeliveryStatus[] | undefined) => void;
}) {
  const selected = [...(value ?? [])];
  return (
    <AnyOfFilter
      label="Delivery status"
      data={options}
      value={selected}
      onChange={(list) => {
        const statuses = list?.filter(isDeliveryStatus) ?? [];
        onChange(statuses.length ? statuses : undefined);
      }}
      searchable={false}
      w={220}
    />
  );
}
