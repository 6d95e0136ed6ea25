import { ActionIcon, Button, Fieldset, Group, NativeSelect, Radio, Stack, TextInput } from '@mantine/core';
import { type FormErrors, type UseFormReturnType, useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  type FilePrivacyRequestRequest,
  filePrivacyRequestRequestSchema,
  MAX_PRIVACY_REQUEST_IDENTIFIERS,
  type PrivacyLaw,
  type PrivacyRequest,
  type PrivacyRequestType,
  privacyLawDeadlines,
  privacyLaws,
  privacyRequestTexts,
  privacyRequestTypes,
} from '@veriform/contracts';
import type { ChangeEvent } from 'react';
import { CellPhoneInput } from '../../../components/form/CellPhoneInput';
import { FormModal } from '../../../components/form/FormModal';
import { useFilePrivacyRequestMutation } from '../api';
import {
  formatDay,
  lawPeriodText,
  privacyLawLabels,
  privacyRequestTypeDescriptions,
  privacyRequestTypeLabels,
} from '../labels';

export type FileRequestValues = {
  type: PrivacyRequestType;
  law: PrivacyLaw;
  /** One input each; blank ones are left out when filed. */
  phones: string[];
  emails: string[];
  requester: { name: string; email: string };
  /** The day it arrived (YYYY-MM-DD), in the owner's time zone. */
  receivedAt: string;
};

const EARLIEST_DAY = '2000-01-01';

/** Today in the browser's time zone, as a date input holds it. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const phoneLabel = (i: number) => `Phone number ${i + 1}`;
const emailLabel = (i: number) => `E-mail address ${i + 1}`;
const indexes = Array.from({ length: MAX_PRIVACY_REQUEST_IDENTIFIERS }, (_, i) => i);

/** The labels of every field the server may name, for the error block's "Label: message" (and the inline ones). */
const labels: Record<string, string> = {
  type: 'Type',
  law: 'Law',
  phones: 'Phone numbers',
  emails: 'E-mail addresses',
  'requester.name': 'Requester’s name',
  'requester.email': 'Requester’s e-mail address',
  receivedAt: 'Received on',
  ...Object.fromEntries(indexes.map((i) => [`phones.${i}`, phoneLabel(i)])),
  ...Object.fromEntries(indexes.map((i) => [`emails.${i}`, emailLabel(i)])),
};

const filled = (list: readonly string[]) => list.map((v) => v.trim()).filter((v) => v !== '');
/** The form's index of each filled input: the body's `phones[k]` is the form's `phones[rows[k]]`. */
const filledRows = (list: readonly string[]) => list.flatMap((v, i) => (v.trim() === '' ? [] : [i]));

/**
 * The day as the instant the server takes: today is left out (the server's now: the due date counts from the moment
 * it was filed, and no clock skew can make it "in the future"); an earlier day is its start in the owner's time zone.
 */
function receivedAtInstant(day: string, today: string): string | undefined {
  if (day === today) return undefined;
  const start = new Date(`${day}T00:00:00`);
  return Number.isNaN(start.getTime()) ? day : start.toISOString();
}

export function toFileRequestBody(
  values: FileRequestValues,
  today = localToday(),
): FilePrivacyRequestRequest {
  const requesterEmail = values.requester.email.trim();
  return {
    type: values.type,
    law: values.law,
    phones: filled(values.phones),
    emails: filled(values.emails),
    requester: { name: values.requester.name, email: requesterEmail === '' ? undefined : requesterEmail },
    receivedAt: receivedAtInstant(values.receivedAt, today),
  };
}

/** The contract's schema on the body, its errors put back on the inputs they came from; the day checked here too. */
export function validateFileRequest(values: FileRequestValues, today = localToday()): FormErrors {
  const errors: FormErrors = {};
  const day = values.receivedAt;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < EARLIEST_DAY || day > today)
    errors.receivedAt = privacyRequestTexts.receivedAtOutOfRange;
  const parsed = filePrivacyRequestRequestSchema.safeParse(toFileRequestBody(values, today));
  if (parsed.success) return errors;
  const rows = { phones: filledRows(values.phones), emails: filledRows(values.emails) };
  for (const issue of parsed.error.issues) {
    const [head, index] = issue.path;
    const key =
      (head === 'phones' || head === 'emails') && typeof index === 'number'
        ? `${head}.${rows[head][index] ?? index}`
        : issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Blank inputs dropped (one of each kind kept), so the server's `phones.1` is the second input on screen. */
function compact(form: UseFormReturnType<FileRequestValues>) {
  const keep = (list: readonly string[]) => {
    const kept = list.filter((v) => v.trim() !== '');
    return kept.length > 0 ? kept : [''];
  };
  form.setFieldValue('phones', keep(form.getValues().phones));
  form.setFieldValue('emails', keep(form.getValues().emails));
}

const lawOptions = privacyLaws.map((law) => ({
  value: law,
  label: `${privacyLawLabels[law]} (${lawPeriodText(law)})`,
}));

/** "Due Jan 14, 2027: 45 days from receipt" for the day chosen. */
function dueHint(law: PrivacyLaw, day: string): string {
  const { days, extensionDays } = privacyLawDeadlines[law];
  const start = new Date(`${day}T00:00:00`);
  if (Number.isNaN(start.getTime()))
    return `Due ${days} days from receipt; it may be extended once by ${extensionDays} days.`;
  start.setDate(start.getDate() + days);
  return `Due ${formatDay(start.toISOString())}, ${days} days from receipt; it may be extended once by ${extensionDays} days.`;
}

function IdentifierInput({
  form,
  kind,
  index: i,
}: {
  form: UseFormReturnType<FileRequestValues>;
  kind: 'phones' | 'emails';
  index: number;
}) {
  const label = kind === 'phones' ? phoneLabel(i) : emailLabel(i);
  const props = form.getInputProps(`${kind}.${i}`);
  // An error of the whole list (the first number's: "at least one number or address") shows on its first input.
  const error = props.error ?? (i === 0 ? form.errors[kind] : undefined);
  const remove =
    form.values[kind].length > 1 ? (
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Remove ${label.toLowerCase()}`}
        onClick={() => form.removeListItem(kind, i)}
      >
        <IconTrash size={16} aria-hidden="true" />
      </ActionIcon>
    ) : undefined;
  const common = {
    ...props,
    error,
    label,
    rightSection: remove,
    // Typing a number or an address answers "at least one" wherever it was said.
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      props.onChange(event);
      form.clearFieldError('phones');
      form.clearFieldError('emails');
    },
  };
  return kind === 'phones' ? (
    <CellPhoneInput {...common} required={false} />
  ) : (
    <TextInput {...common} type="email" autoComplete="off" maxLength={254} />
  );
}

function IdentifierInputs({
  form,
  kind,
}: {
  form: UseFormReturnType<FileRequestValues>;
  kind: 'phones' | 'emails';
}) {
  const list = form.values[kind];
  return (
    <Fieldset
      legend={kind === 'phones' ? 'Phone numbers' : 'E-mail addresses'}
      variant="unstyled"
      p={0}
      styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)', marginBottom: 4 } }}
    >
      <Stack gap="xs">
        {list.map((_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: controlled inputs: their values live in the form, by position
          <IdentifierInput key={i} form={form} kind={kind} index={i} />
        ))}
        {list.length < MAX_PRIVACY_REQUEST_IDENTIFIERS && (
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconPlus size={14} aria-hidden="true" />}
              onClick={() => form.insertListItem(kind, '')}
            >
              Add another {kind === 'phones' ? 'number' : 'address'}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}

/**
 * Files a data-subject request (issue #37 item 3): what the person asks for, under which law (its due period), the
 * numbers and addresses it is about (one at least), who asked, and the day it arrived (today unless said; never in the
 * future). Its matches are counted when it is filed; the request's page carries it out.
 */
export function FileRequestModal({
  accountId,
  opened,
  onClose,
  onFiled,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  onFiled: (request: PrivacyRequest) => void;
}) {
  const file = useFilePrivacyRequestMutation(accountId);
  const today = localToday();
  const form = useForm<FileRequestValues>({
    initialValues: {
      type: 'access',
      law: 'ccpa',
      phones: [''],
      emails: [''],
      requester: { name: '', email: '' },
      receivedAt: today,
    },
    validate: (values) => validateFileRequest(values, localToday()),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="File a privacy request"
      size="lg"
      form={form}
      mutation={file}
      labels={labels}
      submit={(values) => {
        compact(form);
        return file.mutateAsync(toFileRequestBody(values, localToday()));
      }}
      onDone={onFiled}
      submitLabel="File request"
      intro="A person asked what you keep about their numbers or addresses, to have it erased, or to have its use restricted. Record it here the day it arrives: the law gives you a deadline to answer."
    >
      <Stack gap="md">
        <Radio.Group label={labels.type} {...form.getInputProps('type')}>
          <Stack gap="xs" mt="xs">
            {privacyRequestTypes.map((type, i) => (
              <Radio
                key={type}
                data-autofocus={i === 0 || undefined}
                value={type}
                label={privacyRequestTypeLabels[type]}
                description={privacyRequestTypeDescriptions[type]}
              />
            ))}
          </Stack>
        </Radio.Group>
        <NativeSelect
          label={labels.law}
          data={lawOptions}
          description={dueHint(form.values.law, form.values.receivedAt)}
          {...form.getInputProps('law')}
        />
        <IdentifierInputs form={form} kind="phones" />
        <IdentifierInputs form={form} kind="emails" />
        <TextInput
          label={labels['requester.name']}
          required
          autoComplete="off"
          maxLength={200}
          {...form.getInputProps('requester.name')}
        />
        <TextInput
          label={labels['requester.email']}
          description="Where the answer goes, if not to one of the addresses above"
          type="email"
          autoComplete="off"
          maxLength={254}
          {...form.getInputProps('requester.email')}
        />
        <TextInput
          label={labels.receivedAt}
          type="date"
          required
          min={EARLIEST_DAY}
          max={today}
          {...form.getInputProps('receivedAt')}
        />
      </Stack>
    </FormModal>
  );
}
