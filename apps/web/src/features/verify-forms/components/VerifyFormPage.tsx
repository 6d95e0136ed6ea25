import { Badge, Breadcrumbs, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { can, type Membership, updateVerifyFormRequestSchema, type VerifyForm } from '@veriform/contracts';
import { useEffect } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { NotFoundScreen } from '../../../components/errors/NotFoundScreen';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { ImageActions } from '../../../components/ImageActions';
import { PageHeader } from '../../../components/layout/PageHeader';
import { SectionCard } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { NotFoundError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import {
  BANNER_IMAGE_FIELD,
  formCategoriesQueryOptions,
  useDeleteBannerMutation,
  useDeleteVerifyFormMutation,
  useUpdateVerifyFormMutation,
  useUploadBannerMutation,
  verifyFormQueryOptions,
} from '../api';
import { ConsentCard } from './ConsentCard';
import { RecentVerificationsCard, StatsCard } from './FormActivity';
import { FormDetailsFields, type FormDetailsValues, formDetails } from './FormDetailsFields';
import { LiveSwitch } from './FormsTable';
import { ShareCard } from './ShareCard';

const validateDetails = (values: FormDetailsValues) =>
  formDetails.errors(updateVerifyFormRequestSchema.safeParse(values));

function EditCard({ form }: { form: VerifyForm }) {
  const { api } = useServices();
  const update = useUpdateVerifyFormMutation(form.account, form.id);
  const { data: categories = [] } = useQuery(formCategoriesQueryOptions(api, form.account));
  const details = useForm<FormDetailsValues>({
    initialValues: { name: form.name, language: form.language, category: form.category },
    validate: validateDetails,
  });
  const { formRef, onSubmit } = useFormSubmit(details, {
    isPending: update.isPending,
    inlineFields: formDetails.inlineFields,
  });

  // A fresher read of the form shows here (setFieldValue is a new function at every render: it is not a dependency).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the read's name alone sets the field
  useEffect(() => details.setFieldValue('name', form.name), [form.name]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the read's language alone sets the field
  useEffect(() => details.setFieldValue('language', form.language), [form.language]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the read's category alone sets the field
  useEffect(() => details.setFieldValue('category', form.category), [form.category]);

  const submit = onSubmit(async (values) => {
    await update.mutateAsync(updateVerifyFormRequestSchema.parse(values));
    notify.success('Form saved');
  });

  return (
    <SectionCard title="Details">
      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormErrorAlert
            error={update.error}
            labels={formDetails.labels}
            inlineFields={formDetails.inlineFields}
          />
          <FormDetailsFields
            form={details}
            categories={categories}
            row={(fields) => (
              <Group grow align="flex-start" wrap="wrap">
                {fields}
              </Group>
            )}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

function StatusCard({ form }: { form: VerifyForm }) {
  return (
    <SectionCard title="Status">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm">
          <Text fw={500} aria-hidden="true">
            Active
          </Text>
          <Badge color={form.isLive ? 'green' : 'gray'} variant="light">
            {form.isLive ? 'Live' : 'Inactive'}
          </Badge>
        </Group>
        <LiveSwitch form={form} label="Active" />
      </Group>
      <Text size="sm" c="dimmed">
        {form.isLive
          ? 'Consumers can open the public link and verify their phone number.'
          : 'The public link shows that the form is not taking answers. Switch it on when you are ready.'}
      </Text>
    </SectionCard>
  );
}

function BannerCard({ form }: { form: VerifyForm }) {
  const upload = useUploadBannerMutation(form.id);
  const remove = useDeleteBannerMutation(form.id);
  return (
    <SectionCard title="Banner">
      {form.bannerImage ? (
        <Image src={form.bannerImage} alt="Banner" radius="md" mah={200} fit="contain" />
      ) : (
        <Paper
          radius="md"
          h={120}
          bg="var(--mantine-color-gray-light)"
          style={{ display: 'grid', placeItems: 'center' }}
        >
          <Stack align="center" gap={4}>
            <IconPhoto size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              No banner yet: the public page shows your company name instead.
            </Text>
          </Stack>
        </Paper>
      )}
      <ImageActions
        noun="banner"
        hasImage={Boolean(form.bannerImage)}
        upload={{
          ...upload,
          mutate: (file, options) =>
            upload.mutate(file, {
              onSuccess: () => {
                notify.success('Banner uploaded');
                options.onSuccess();
              },
            }),
        }}
        remove={remove}
        fieldName={BANNER_IMAGE_FIELD}
        deleteNotices={{ done: 'Banner deleted', failed: 'Failed to delete the banner' }}
      />
    </SectionCard>
  );
}

function DangerCard({ form }: { form: VerifyForm }) {
  const navigate = useNavigate();
  const [opened, dialog] = useDisclosure(false);
  const remove = useDeleteVerifyFormMutation(form.account, form.id);
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        dialog.close();
        notify.success('Form deleted', `${form.name} was deleted.`);
        void navigate({ to: '/forms/' });
      },
      onError: (error) => {
        dialog.close();
        notify.error('Failed to delete the form', errorDisplayText(error));
      },
    });
  return (
    <SectionCard title="Delete">
      <Text size="sm" c="dimmed">
        A form that already has verifications cannot be deleted; switch it off instead.
      </Text>
      <Group>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} aria-hidden="true" />}
          onClick={dialog.open}
        >
          Delete form
        </Button>
      </Group>
      <ConfirmModal
        opened={opened}
        title={`Delete ${form.name}?`}
        confirmLabel="Delete"
        onConfirm={confirm}
        onCancel={dialog.close}
        loading={remove.isPending}
      >
        The form and its public link go away for good. This cannot be undone.
      </ConfirmModal>
    </SectionCard>
  );
}

function FormDetail({ membership, formId }: { membership: Membership; formId: number }) {
  const { api } = useServices();
  const accountId = membership.account.id;
  const { data: form, error, isPending } = useQuery(verifyFormQueryOptions(api, accountId, formId));
  if (error instanceof NotFoundError) return <NotFoundScreen />;
  if (isPending) return <PageHeader title="Form" />;
  if (!form)
    return (
      <>
        <PageHeader title="Form" />
        <Text c="red">{errorDisplayText(error)}</Text>
      </>
    );
  // Another account's form (the user is a member there too): the current account became another while it was open.
  if (form.account !== accountId) return <Navigate to="/forms/" replace />;
  return (
    <>
      <Breadcrumbs mb="xs" aria-label="Breadcrumb" component="nav">
        <AnchorLink to="/forms/" size="sm">
          Forms
        </AnchorLink>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {form.name}
        </Text>
      </Breadcrumbs>
      <PageHeader title={form.name} />
      <Stack gap="lg" maw={820}>
        <StatusCard form={form} />
        <ShareCard form={form} />
        {/* The counts and the list follow the dashboard's and the activity log's rights (docs/roles.md). */}
        {can(membership, 'viewReports') && <StatsCard form={form} />}
        {can(membership, 'searchData') && <RecentVerificationsCard form={form} />}
        <EditCard form={form} />
        <ConsentCard
          form={form}
          company={membership.account.displayName}
          canPublish={can(membership, 'manageForms')}
        />
        <BannerCard form={form} />
        <DangerCard form={form} />
      </Stack>
    </>
  );
}

/** SPEC §2 /forms/{verifyFormId}: the current account's form; another account's is not found. */
export function VerifyFormPage({ formId }: { formId: number }) {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembershipAlert />;
  return <FormDetail key={currentMembership.account.id} membership={currentMembership} formId={formId} />;
}
