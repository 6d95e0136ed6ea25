import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertCircle, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  can,
  createTestPhoneNumberRequestSchema,
  type Membership,
  type SimulatedDeliveryErrorCode,
  simulatedDeliveryErrorCodeSchema,
  simulatedDeliveryOptions,
  type TestPhoneNumber,
} from '@veriform/contracts';
import { type ReactNode, useRef, useState } from 'react';
import { z } from 'zod';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CellPhoneInput } from '../../../components/form/CellPhoneInput';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { SectionCard } from '../../../components/layout/SectionCard';
import { errorDisplayText } from '../../../lib/error-text';
import { formatPhoneForReading } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { testNumbersQueryOptions, useCreateTestNumberMutation, useDeleteTestNumberMutation } from '../api';

export const TEST_MODE_TEXT =
  'Codes are not sent to test numbers; enter the fixed code instead. Verifications made with them are marked as tests.';

export const SIMULATED_DELIVERY_HINT =
  'What the code’s message reports: try the page’s message to the consumer, the attempts view and webhook events for a failed delivery.';

const labels = { cellPhone: 'Phone number', code: 'Code', simulatedErrorCode: 'Simulated delivery' } as const;
const fields = Object.keys(labels);

/** The contract's body without the account (the card adds it); an empty phone says "Required" like other forms. */
const addSchema = createTestPhoneNumberRequestSchema
  .omit({ account: true })
  .extend({ cellPhone: z.string().trim().min(1, 'Required').max(40) });
type AddValues = { cellPhone: string; code: string; simulatedErrorCode: SimulatedDeliveryErrorCode | null };

/** A Select's values are strings: "delivered" stands for null. */
const DELIVERED = 'delivered';
const outcomeData = simulatedDeliveryOptions.map((option) => ({
  value: option.code ?? DELIVERED,
  label: option.label,
}));
const outcomeLabel = (code: SimulatedDeliveryErrorCode | null): string =>
  simulatedDeliveryOptions.find((option) => option.code === code)?.label ?? code ?? 'Delivered';

/** Owners: add a number with its fixed code; the server's refusals (invalid, already there) show beside the field. */
function AddTestNumberForm({ accountId }: { accountId: number }) {
  const create = useCreateTestNumberMutation(accountId);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<AddValues>({
    initialValues: { cellPhone: '', code: '', simulatedErrorCode: null },
    validate: schemaResolver(addSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      if (create.isPending) return;
      try {
        const number = await create.mutateAsync(addSchema.parse(values));
        notify.success(
          'Test number added',
          `${formatPhoneForReading(number.cellPhone)} verifies with code ${number.code}.`,
        );
        form.reset();
        create.reset();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Add a test number">
      <Stack gap="sm">
        <FormErrorAlert error={create.error} labels={labels} inlineFields={fields} />
        <Group align="flex-start" gap="sm" wrap="wrap">
          <CellPhoneInput
            label={labels.cellPhone}
            style={{ flex: '1 1 220px' }}
            {...form.getInputProps('cellPhone')}
          />
          <TextInput
            label={labels.code}
            description="6 digits"
            inputMode="numeric"
            autoComplete="off"
            required
            maxLength={6}
            style={{ flex: '0 1 140px' }}
            {...form.getInputProps('code')}
          />
        </Group>
        <Select
          label={labels.simulatedErrorCode}
          description={SIMULATED_DELIVERY_HINT}
          data={outcomeData}
          allowDeselect={false}
          maw={320}
          value={form.values.simulatedErrorCode ?? DELIVERED}
          error={form.errors.simulatedErrorCode}
          onChange={(value) => {
            const code = simulatedDeliveryErrorCodeSchema.safeParse(value);
            form.setFieldValue('simulatedErrorCode', code.success ? code.data : null);
          }}
        />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Add test number
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TestNumbersTable({
  numbers,
  onDelete,
}: {
  numbers: TestPhoneNumber[];
  /** Owners only: without it the list is read-only. */
  onDelete?: (number: TestPhoneNumber) => void;
}) {
  return (
    <Table aria-label="Test numbers" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Phone number</Table.Th>
          <Table.Th scope="col">Code</Table.Th>
          <Table.Th scope="col">Simulated delivery</Table.Th>
          {onDelete && (
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {numbers.map((number) => {
          const phone = formatPhoneForReading(number.cellPhone);
          return (
            <Table.Tr key={number.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{phone}</Table.Td>
              <Table.Td ff="monospace">{number.code}</Table.Td>
              <Table.Td>{outcomeLabel(number.simulatedErrorCode)}</Table.Td>
              {onDelete && (
                <Table.Td ta="right">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete test number ${phone}`}
                    onClick={() => onDelete(number)}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                </Table.Td>
              )}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Company Info's test numbers (test mode; ours): every member sees them and their codes (to try a form), owners add
 * and delete them (docs/roles.md).
 */
export function TestNumbersCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const owner = can(membership, 'manageCompany');
  const { api } = useServices();
  const { data: numbers, error, isPending } = useQuery(testNumbersQueryOptions(api, accountId));
  const remove = useDeleteTestNumberMutation(accountId);
  const [toDelete, setToDelete] = useState<TestPhoneNumber | null>(null);

  const confirmDelete = () => {
    if (!toDelete) return;
    const phone = formatPhoneForReading(toDelete.cellPhone);
    remove.mutate(toDelete.id, {
      onSuccess: () => notify.success('Test number deleted', `${phone} is an ordinary number again.`),
      onError: (failure) => notify.error('Failed to delete the test number', errorDisplayText(failure)),
      onSettled: () => setToDelete(null),
    });
  };

  let list: ReactNode;
  if (isPending) {
    list = (
      <Stack gap="xs" role="group" aria-busy="true" aria-label="Loading test numbers">
        <Skeleton height={28} radius="sm" />
        <Skeleton height={28} radius="sm" />
      </Stack>
    );
  } else if (!numbers) {
    list = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        {errorDisplayText(error)}
      </Alert>
    );
  } else if (numbers.length === 0) {
    list = (
      <Text size="sm" c="dimmed">
        No test numbers yet.
        {owner ? ' Add one below to try your forms without sending a message.' : ''}
      </Text>
    );
  } else {
    list = <TestNumbersTable numbers={numbers} {...(owner ? { onDelete: setToDelete } : {})} />;
  }

  return (
    <SectionCard title="Test numbers" maw={720}>
      <Text size="sm" c="dimmed">
        {TEST_MODE_TEXT}
      </Text>
      {list}
      {owner ? (
        <AddTestNumberForm accountId={accountId} />
      ) : (
        <Text size="sm" c="dimmed">
          Only owners can add or delete test numbers.
        </Text>
      )}
      <ConfirmModal
        opened={toDelete !== null}
        title={toDelete ? `Delete test number ${formatPhoneForReading(toDelete.cellPhone)}?` : ''}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
        loading={remove.isPending}
      >
        Codes to this number will be sent for real again, and its fixed code stops working.
      </ConfirmModal>
    </SectionCard>
  );
}
