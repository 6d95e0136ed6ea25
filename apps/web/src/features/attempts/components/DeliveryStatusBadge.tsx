import { Badge } from '@mantine/core';
import type { DeliveryStatus } from '@veriform/contracts';
import { deliveryStatusColors, deliveryStatusLabels } from '../labels';

/**
 * A delivery status as a tinted badge with its word (dark text on the tint: Mantine's light text is below AA). The word
 * is the point of the attempts view, so the badge is never narrower than it: a table column gives way elsewhere rather
 * than cut it to "UNDELI…".
 */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={deliveryStatusColors[status]}
      c="dark.6"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {deliveryStatusLabels[status]}
    </Badge>
  );
}
