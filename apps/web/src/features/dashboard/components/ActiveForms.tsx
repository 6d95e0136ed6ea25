import { Alert, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DashboardSearch } from '@veriform/contracts';
import { AnchorLink } from '../../../components/links';
import { errorDisplayText } from '../../../lib/error-text';
import { useServices } from '../../../lib/services';
import { ACTIVE_FORMS_MAX, activeFormsQueryOptions } from '../api';
import { MUTED, plural } from '../format';

/**
 * The account's live forms under the dashboard's form filters (categories through the list API; chosen form ids
 * here, since the list API has no id filter). Each links to its form page.
 */
export function ActiveForms({ accountId, search }: { accountId: number; search: DashboardSearch }) {
  const { api } = useServices();
  const { data, error, isPending, refetch } = useQuery(activeFormsQueryOptions(api, accountId, search));

  if (isPending)
    return (
      <Stack gap="xs" role="group" aria-busy="true" aria-label="Loading active forms">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={20} width={`${80 - i * 15}%`} radius="sm" />
        ))}
      </Stack>
    );
  if (!data)
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        <Group gap="xs" wrap="wrap">
          <span>{errorDisplayText(error)}</span>
          <Button variant="subtle" size="compact-sm" onClick={() => void refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );

  const ids = search.verifyFormId__in?.length ? new Set(search.verifyFormId__in) : null;
  const forms = ids ? data.results.filter((form) => ids.has(form.id)) : data.results;
  // Past one page the list is cut; the count still says how many there are.
  const total = ids ? forms.length : data.count;

  if (forms.length === 0)
    return (
      <Text size="sm" c={MUTED}>
        No live forms{ids || search.verifyFormCategory__in?.length ? ' match these filters' : ''}. Switch a
        form to Active on the <AnchorLink to="/forms/">Forms</AnchorLink> page to collect verifications.
      </Text>
    );
  return (
    <Stack gap="xs">
      <Text size="sm" c={MUTED}>
        {plural(total, 'live form', 'live forms')}
        {total > forms.length && `, the first ${ACTIVE_FORMS_MAX} by name`}
      </Text>
      <Stack component="ul" gap={6} m={0} p={0} aria-label="Active forms" style={{ listStyle: 'none' }}>
        {forms.map((form) => (
          <Group component="li" key={form.id} justify="space-between" gap="xs" wrap="nowrap">
            <AnchorLink
              to="/forms/$verifyFormId"
              params={{ verifyFormId: String(form.id) }}
              size="sm"
              style={{ overflowWrap: 'anywhere', minWidth: 0 }}
            >
              {form.name}
            </AnchorLink>
            {form.category && (
              <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
                {form.category}
              </Badge>
            )}
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
