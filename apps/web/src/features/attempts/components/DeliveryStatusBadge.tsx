import { Badge } from '@mantine/core';
import type { DeliveryStatus } from '@veriform/contracts';
import { deliveryStatusColors, deliveryStatusLabels } from '../labels';

/** A delivery status as a tinted badge with its word (dark text on the tint: Mantine's light text is below AA). */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={deliveryStatusColors[status]}
      c="dark.6"
      style={{ flexShrink: 0 }}
    >
      {deliveryStatusLabels[status]}
    </Badge>
  );
}
