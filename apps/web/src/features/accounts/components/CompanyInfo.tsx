import { Avatar, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { type Account, can, type Membership, updateAccountRequestSchema } from '@veriform/contracts';
import { type ReactNode, useEffect } from 'react';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { ImageActions } from '../../../components/ImageActions';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { initialsFor } from '../../../components/shell/nav';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import {
  ACCOUNT_IMAGE_FIELD,
  accountQueryOptions,
  useDeleteAccountImageMutation,
  useUpdateAccountMutation,
  useUploadAccountImageMutation,
} from '../api';
import { CarrierLookupsCard } from './CarrierLookupsCard';
import { ConsentAgeCard } from './ConsentAgeCard';
import { PhoneCountriesCard } from './PhoneCountriesCard';
import { RequireMfaCard } from './RequireMfaCard';

const NAME_LABEL = 'Company name';

function CompanyLogo({ account }: { account: Account }) {
  return (
    <Avatar
      src={account.uploadedProfileImage}
      size={88}
      radius="md"
      color="indigo"
      alt={account.uploadedProfileImage ? `${account.displayName} logo` : undefined}
      data-testid="company-logo"
    >
      {initialsFor(account.displayName, '')}
    </Avatar>
  );
}

/** Owners: rename the company. */
function CompanyNameForm({ account }: { account: Account }) {
  const update = useUpdateAccountMutation(account.id);
  const form = useForm({
    initialValues: { displayName: account.displayName },
    validate: schemaResolver(updateAccountRequestSchema, { sync: true }),
  });
  // Any failure shows beside the field: the form has no error block.
  const { formRef, onSubmit } = useFormSubmit(form, {
    isPending: update.isPending,
    inlineFields: ['displayName'],
    onError: (failure) =>
      form.setFieldError(
        'displayName',
        failure instanceof ApiValidationError && failure.fieldErrors.displayName
          ? failure.fieldErrors.displayName
          : errorDisplayText(failure, { displayName: NAME_LABEL }),
      ),
  });

  // Another change (a fresh read, a rename in the account menu's list) shows here unless the owner is typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the read's name alone sets the field
  useEffect(() => form.setFieldValue('displayName', account.displayName), [account.displayName]);

  const submit = onSubmit(async (values) => {
    const parsed = updateAccountRequestSchema.parse(values);
    await update.mutateAsync(parsed);
    notify.success('Company updated', `The company is now called ${parsed.displayName}.`);
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={NAME_LABEL}
          required
          maxLength={100}
          autoComplete="organization"
          style={{ flex: '1 1 240px' }}
          {...form.getInputProps('displayName')}
        />
        <Button type="submit" loading={update.isPending} mt={{ base: 0, xs: 25 }}>
          Save
        </Button>
      </Group>
    </form>
  );
}

function LogoButtons({ account }: { account: Account }) {
  const upload = useUploadAccountImageMutation(account.id);
  const remove = useDeleteAccountImageMutation(account.id);
  return (
    <ImageActions
      noun="logo"
      hasImage={Boolean(account.uploadedProfileImage)}
      upload={upload}
      remove={remove}
      fieldName={ACCOUNT_IMAGE_FIELD}
      deleteNotices={{ done: 'Logo deleted', failed: 'Failed to Delete Logo' }}
    />
  );
}

function CompanyInfoCard({ membership }: { membership: Membership }) {
  const { api, session } = useServices();
  const { data: account } = useQuery({
    ...accountQueryOptions(api, membership.account.id),
    initialData: membership.account,
  });
  // A fresher read (another owner renamed it) also updates the account menu.
  useEffect(() => {
    const shown = session.get().currentMembership?.account;
    if (
      shown &&
      shown.id === account.id &&
      (shown.displayName !== account.displayName ||
        shown.uploadedProfileImage !== account.uploadedProfileImage)
    )
      session.replaceAccount(account);
  }, [account, session]);
  const owner = can(membership, 'manageCompany');

  return (
    <SectionPaper maw={720} aria-label="Company">
      <Stack gap="lg">
        <Group gap="lg" wrap="nowrap" align="flex-start">
          <CompanyLogo account={account} />
          <Stack gap="xs" style={{ minWidth: 0 }}>
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {account.displayName}
            </Title>
            <Badge variant="light" size="sm">
              {owner ? 'Owner' : 'Member'}
            </Badge>
            {owner ? (
              <LogoButtons account={account} />
            ) : (
              <Text size="sm" c="dimmed">
                Only owners can change the company’s name and logo.
              </Text>
            )}
          </Stack>
        </Group>
        {owner && <CompanyNameForm account={account} />}
      </Stack>
    </SectionPaper>
  );
}

/**
 * SPEC §2 company-info: the current membership's account; owners may rename it and change its logo, choose the
 * countries codes are sent to, how long a verification stands as consent and which carrier lookups are asked, and manage the account's test numbers (`moreCards`: other features' cards of the
 * same account, composed by the route).
 */
export function CompanyInfo({ moreCards }: { moreCards?: (membership: Membership) => ReactNode }) {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembershipAlert />;
  return (
    <Stack key={currentMembership.account.id} gap="lg">
      <CompanyInfoCard membership={currentMembership} />
      <PhoneCountriesCard membership={currentMembership} />
      <ConsentAgeCard membership={currentMembership} />
      <CarrierLookupsCard membership={currentMembership} />
      <RequireMfaCard membership={currentMembership} />
      {moreCards?.(currentMembership)}
    </Stack>
  );
}
