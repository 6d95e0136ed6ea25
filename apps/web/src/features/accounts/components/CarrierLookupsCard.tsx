import { Button, Fieldset, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import {
  can,
  LOOKUP_MONTHLY_CEILING,
  LOOKUP_REASSIGNED_MAX_AGE_DAYS,
  LOOKUP_SIM_SWAP_WINDOW_DAYS,
  type LookupKind,
  type LookupSettings,
  type Membership,
  type UpdateLookupSettingsRequest,
} from '@veriform/contracts';
import { type ReactNode, useEffect, useId } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { SettingCard } from '../../../components/layout/SettingCard';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { lookupSettingsQueryOptions, useUpdateLookupSettingsMutation } from '../api';

export const CARRIER_LOOKUPS_TEXT =
  'Ask the carrier about a number through Twilio Lookup and keep its answer as evidence. Every lookup is billed by Twilio to your account, so each kind is off until you turn it on, and each stops at its monthly ceiling.';
export const CARRIER_LOOKUPS_OWNERS_ONLY =
  'Only owners manage carrier lookups: each one is billed to the account.';

const count = (n: number) => n.toLocaleString('en-US');
/** "412 of 1,000 this month": a kind's lookups this month (UTC) against its ceiling. */
export const usageText = (asked: number, ceiling: number) =>
  `${count(asked)} of ${count(ceiling)} this month`;

/** The form's values: the numbers as typed (a text box each), read as numbers on Save. */
type Values = {
  lineType: boolean;
  simSwap: boolean;
  simSwapWindowDays: string;
  refuseOnSimSwap: boolean;
  reassignedChecks: boolean;
  reassignedMaxAgeDays: string;
  monthlyCeiling: Record<LookupKind, string>;
};

const NUMBER_FIELDS = [
  'simSwapWindowDays',
  'reassignedMaxAgeDays',
  'monthlyCeiling.lineType',
  'monthlyCeiling.simSwap',
  'monthlyCeiling.reassigned',
] as const;
const INLINE_FIELDS = ['lineType', 'simSwap', 'refuseOnSimSwap', 'reassignedChecks', ...NUMBER_FIELDS];

const LABELS = {
  lineType: 'Record the line type and carrier',
  simSwap: 'Record the last SIM swap',
  simSwapWindowDays: 'Recent swap: within (days)',
  refuseOnSimSwap: 'Refuse the text after a recent swap',
  reassignedChecks: 'Check verified numbers for reassignment',
  reassignedMaxAgeDays: 'Check again after (days)',
  'monthlyCeiling.lineType': 'Line type lookups a month, at most',
  'monthlyCeiling.simSwap': 'SIM swap lookups a month, at most',
  'monthlyCeiling.reassigned': 'Reassignment checks a month, at most',
} as const;

function valuesOf(settings: LookupSettings): Values {
  return {
    lineType: settings.lineType,
    simSwap: settings.simSwap,
    simSwapWindowDays: String(settings.simSwapWindowDays),
    refuseOnSimSwap: settings.refuseOnSimSwap,
    reassignedChecks: settings.reassignedChecks,
    reassignedMaxAgeDays: String(settings.reassignedMaxAgeDays),
    monthlyCeiling: {
      lineType: String(settings.monthlyCeiling.lineType),
      simSwap: String(settings.monthlyCeiling.simSwap),
      reassigned: String(settings.monthlyCeiling.reassigned),
    },
  };
}

/** A typed number: empty or not a number is refused here; its range is the server's to judge (the contract's). */
const numberError = (value: string) =>
  value.trim() === '' ? 'Enter a number.' : Number.isFinite(Number(value)) ? null : 'Enter a whole number.';

function requestOf(values: Values): UpdateLookupSettingsRequest {
  return {
    lineType: values.lineType,
    simSwap: values.simSwap,
    simSwapWindowDays: Number(values.simSwapWindowDays),
    refuseOnSimSwap: values.refuseOnSimSwap,
    reassignedChecks: values.reassignedChecks,
    reassignedMaxAgeDays: Number(values.reassignedMaxAgeDays),
    monthlyCeiling: {
      lineType: Number(values.monthlyCeiling.lineType),
      simSwap: Number(values.monthlyCeiling.simSwap),
      reassigned: Number(values.monthlyCeiling.reassigned),
    },
  };
}

const range = (r: { min: number; max: number }) => `${count(r.min)}–${count(r.max)}`;

/** A number the owner types (days, a ceiling), its range in its description. */
function NumberField({
  form,
  field,
  description,
}: {
  form: UseFormReturnType<Values>;
  field: (typeof NUMBER_FIELDS)[number];
  description: string;
}) {
  return (
    <TextInput
      label={LABELS[field]}
      description={description}
      inputMode="numeric"
      autoComplete="off"
      w={{ base: '100%', xs: 320 }}
      {...form.getInputProps(field)}
    />
  );
}

/** One kind's ceiling and this month's count against it. */
function CeilingField({
  kind,
  form,
  settings,
}: {
  kind: LookupKind;
  form: UseFormReturnType<Values>;
  settings: LookupSettings;
}) {
  const usage = usageText(settings.thisMonth[kind], settings.monthlyCeiling[kind]);
  return (
    <NumberField
      form={form}
      field={`monthlyCeiling.${kind}`}
      description={`${usage}. ${range(LOOKUP_MONTHLY_CEILING)}; 0 stops them.`}
    />
  );
}

/**
 * A switch with what it does and costs below it: Mantine's own description sits inside the switch's `<label>`, so the
 * whole text would be its name; here the label is the name and the words its description.
 */
function DescribedSwitch({
  label,
  description,
  ...input
}: { label: string; description: string } & ReturnType<UseFormReturnType<Values>['getInputProps']>) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Switch label={label} aria-describedby={`${id}-description`} {...input} />
      <Text id={`${id}-description`} size="xs" c="dimmed" pl={50}>
        {description}
      </Text>
    </Stack>
  );
}

function KindFieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Fieldset
      legend={legend}
      variant="unstyled"
      p={0}
      // The kind reads above its fields as a heading would (their labels are bold too).
      styles={{ legend: { fontWeight: 700, fontSize: 'var(--mantine-font-size-md)', marginBottom: 4 } }}
    >
      <Stack gap="sm">{children}</Stack>
    </Fieldset>
  );
}

/** Owners: the switches, windows and ceilings, saved together. */
function CarrierLookupsForm({ accountId, settings }: { accountId: number; settings: LookupSettings }) {
  const update = useUpdateLookupSettingsMutation(accountId);
  const form = useForm<Values>({
    initialValues: valuesOf(settings),
    validate: (values) => ({
      simSwapWindowDays: numberError(values.simSwapWindowDays),
      reassignedMaxAgeDays: numberError(values.reassignedMaxAgeDays),
      'monthlyCeiling.lineType': numberError(values.monthlyCeiling.lineType),
      'monthlyCeiling.simSwap': numberError(values.monthlyCeiling.simSwap),
      'monthlyCeiling.reassigned': numberError(values.monthlyCeiling.reassigned),
    }),
  });
  const { formRef, onSubmit } = useFormSubmit(form, {
    isPending: update.isPending,
    inlineFields: INLINE_FIELDS,
  });

  // A fresher read (another owner saved, or this save's answer) shows here.
  const saved = JSON.stringify(valuesOf(settings));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the saved values alone reset the form
  useEffect(() => {
    const values = valuesOf(settings);
    form.setInitialValues(values);
    form.setValues(values);
  }, [saved]);

  const submit = onSubmit(async (values) => {
    await update.mutateAsync(requestOf(values));
    notify.success('Carrier lookups saved', 'The settings apply to the next codes and checks.');
  });

  const switchProps = (field: 'lineType' | 'simSwap' | 'refuseOnSimSwap' | 'reassignedChecks') =>
    form.getInputProps(field, { type: 'checkbox' });

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Carrier lookups">
      <Stack gap="lg">
        <KindFieldset legend="Line type">
          <DescribedSwitch
            label={LABELS.lineType}
            description="Each code requested asks the carrier whether the number is a mobile, a landline or VoIP, and its name: one Twilio line type lookup, billed by Twilio."
            {...switchProps('lineType')}
          />
          <CeilingField kind="lineType" form={form} settings={settings} />
        </KindFieldset>
        <KindFieldset legend="SIM swap">
          <DescribedSwitch
            label={LABELS.simSwap}
            description="Each code requested asks the carrier when the number's SIM card last changed hands: one Twilio SIM swap lookup, billed by Twilio even when the carrier has no data."
            {...switchProps('simSwap')}
          />
          <NumberField
            form={form}
            field="simSwapWindowDays"
            description={`A swap this many days or fewer before the code is flagged on the verification (${range(LOOKUP_SIM_SWAP_WINDOW_DAYS)}).`}
          />
          <DescribedSwitch
            label={LABELS.refuseOnSimSwap}
            description="A flagged swap refuses the text message; the consumer is offered e-mail instead."
            {...switchProps('refuseOnSimSwap')}
          />
          <CeilingField kind="simSwap" form={form} settings={settings} />
        </KindFieldset>
        <KindFieldset legend="Reassigned numbers">
          <DescribedSwitch
            label={LABELS.reassignedChecks}
            description="Asks the Reassigned Numbers Database (US numbers) whether a verified number changed hands since its consent, before saying it may be contacted: one Twilio lookup per check, billed by Twilio."
            {...switchProps('reassignedChecks')}
          />
          <NumberField
            form={form}
            field="reassignedMaxAgeDays"
            description={`A check older than this is made again (${range(LOOKUP_REASSIGNED_MAX_AGE_DAYS)}).`}
          />
          <CeilingField kind="reassigned" form={form} settings={settings} />
        </KindFieldset>
        <FormErrorAlert error={update.error} labels={LABELS} inlineFields={INLINE_FIELDS} />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save carrier lookups
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Company Info's carrier lookups (issue #36): which Twilio lookups are asked by themselves, the SIM swap window, how
 * old a reassignment check may be, each kind's monthly ceiling and this month's count. Owners only: the settings are
 * the bill's, and their read answers members 403, so members are not sent to it and read a note instead.
 */
export function CarrierLookupsCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const owner = can(membership, 'manageCompany');
  const { api } = useServices();
  const read = useQuery({ ...lookupSettingsQueryOptions(api, accountId), enabled: owner });
  return (
    <SettingCard
      title="Carrier lookups"
      description={CARRIER_LOOKUPS_TEXT}
      read={read}
      loading="Loading carrier lookups"
      skeleton={{ height: 240 }}
      owner={owner}
      edit={(settings) => <CarrierLookupsForm accountId={accountId} settings={settings} />}
      ownersOnly={CARRIER_LOOKUPS_OWNERS_ONLY}
    />
  );
}
