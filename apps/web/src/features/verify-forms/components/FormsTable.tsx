import { Badge, Switch, Text } from '@mantine/core';
import { languageLabels, type VerifyForm } from '@veriform/contracts';
import { type DataColumn, DataTable } from '../../../components/data-list/DataList';
import { TableSkeleton } from '../../../components/data-list/ListSkeleton';
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

const columns: DataColumn<VerifyForm>[] = [
  {
    label: 'Name',
    cell: (form) => (
      <AnchorLink
        to="/forms/$verifyFormId"
        params={{ verifyFormId: String(form.id) }}
        fw={500}
        style={{ overflowWrap: 'anywhere' }}
      >
        {form.name}
      </AnchorLink>
    ),
  },
  {
    label: 'Category',
    cell: (form) =>
      form.category ? (
        <Badge variant="light" color="gray" tt="none">
          {form.category}
        </Badge>
      ) : (
        <Text c="dimmed" size="sm">
          —
        </Text>
      ),
    th: { visibleFrom: 'sm' },
    td: { visibleFrom: 'sm' },
  },
  {
    label: 'Language',
    cell: (form) => languageLabels[form.language],
    th: { visibleFrom: 'sm' },
    td: { visibleFrom: 'sm' },
  },
  {
    label: 'Created',
    cell: (form) => <time dateTime={form.created}>{formatCreated(form.created)}</time>,
  },
  { label: 'Active', cell: (form) => <LiveSwitch form={form} label={`Active: ${form.name}`} /> },
];

/** The account's forms: a table at every width (its hidden columns make it fit a phone). */
export function FormsTable({ forms }: { forms: readonly VerifyForm[] }) {
  return (
    <DataTable
      label="Forms"
      rows={forms}
      rowKey={(form) => form.id}
      columns={columns}
      minWidth={340}
      highlightOnHover
    />
  );
}

export function FormsTableSkeleton() {
  return (
    <TableSkeleton
      label="Loading forms"
      columns={columns.map(({ label, th }) => ({
        label,
        visibleFrom: th?.visibleFrom === 'sm' ? 'sm' : undefined,
      }))}
    />
  );
}
