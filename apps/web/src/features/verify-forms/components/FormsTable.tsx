import { Badge, Skeleton, Switch, Table, Text } from '@mantine/core';
import { languageLabels, type VerifyForm } from '@veriform/contracts';
import { AnchorLink } from '../../../components/links';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useToggleVerifyFormMutation } from '../api';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function formatCreated(created: string): string {
  const date = new Date(created);
  return Number.isNaN(date.getTime()) ? created : dateFormat.format(date);
}

/** The live switch of one form: shown at once, put back if the server refuses. */
export function LiveSwitch({ form, label }: { form: VerifyForm; label: string }) {
  const toggle = useToggleVerifyFormMutation(form.account, form.id);
  return (
    <Switch
      aria-label={label}
      // The (transparent) input lies over the track, so a click or tap lands on the control itself.
      styles={{ input: { zIndex: 1, cursor: 'pointer' } }}
      checked={form.isLive}
      onChange={(event) => {
        const isLive = event.currentTarget.checked;
        toggle.mutate(
          { form, isLive },
          {
            onSuccess: () => notify.success(isLive ? 'Form activated' : 'Form deactivated'),
            onError: (error) =>
              notify.error(
                isLive ? 'Failed to activate the form' : 'Failed to deactivate the form',
                errorDisplayText(error),
              ),
          },
        );
      }}
    />
  );
}

function Head() {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Name</Table.Th>
        <Table.Th visibleFrom="sm">Category</Table.Th>
        <Table.Th visibleFrom="sm">Language</Table.Th>
        <Table.Th>Created</Table.Th>
        <Table.Th>Active</Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

export function FormsTable({ forms }: { forms: readonly VerifyForm[] }) {
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table aria-label="Forms" verticalSpacing="sm" highlightOnHover>
        <Head />
        <Table.Tbody>
          {forms.map((form) => (
            <Table.Tr key={form.id}>
              <Table.Td>
                <AnchorLink
                  to="/forms/$verifyFormId"
                  params={{ verifyFormId: String(form.id) }}
                  fw={500}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {form.name}
                </AnchorLink>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                {form.category ? (
                  <Badge variant="light" color="gray" tt="none">
                    {form.category}
                  </Badge>
                ) : (
                  <Text c="dimmed" size="sm">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td visibleFrom="sm">{languageLabels[form.language]}</Table.Td>
              <Table.Td>
                <time dateTime={form.created}>{formatCreated(form.created)}</time>
              </Table.Td>
              <Table.Td>
                <LiveSwitch form={form} label={`Active: ${form.name}`} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function FormsTableSkeleton() {
  return (
    <Table aria-label="Loading forms" aria-busy="true">
      <Head />
      <Table.Tbody>
        {[1, 2, 3, 4, 5].map((row) => (
          <Table.Tr key={row}>
            {[1, 2, 3, 4, 5].map((cell) => (
              <Table.Td key={cell} visibleFrom={cell === 2 || cell === 3 ? 'sm' : undefined}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
