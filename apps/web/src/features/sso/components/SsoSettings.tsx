import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  PasswordInput,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconBuildingSkyscraper, IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Membership, PutSsoRequest, Role, SsoSettingsResponse } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { EmptyState } from '../../../components/layout/EmptyState';
import { SectionCard } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { ssoSettingsQueryOptions, useSaveSsoMutation } from '../api';

export const SSO_INTRO =
  'Let people of your company’s verified domain sign in through your identity provider (Okta, Microsoft Entra ID, Google Workspace, or any OpenID Connect provider). Their membership is made at their first sign-in, with the role you choose.';

const labels = {
  domain: 'Domain',
  issuer: 'Issuer URL',
  clientId: 'Client ID',
  clientSecret: 'Client secret',
  defaultRole: 'Role at first sign-in',
  required: 'Require single sign-on for this domain',
} as const;
const inlineFields = ['domain', 'issuer', 'clientId', 'clientSecret'] as const;

const roleOptions = [
  { value: 'member', label: 'Member' },
  { value: 'owner', label: 'Owner' },
];

type Values = {
  domain: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  defaultRole: Role;
  required: boolean;
};

/** The redirect URI to register at the provider, read-only with a copy button. */
function RedirectUri({ value }: { value: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <TextInput
          label="Redirect URI"
          description="Register this address as the application’s allowed redirect (sign-in) URI at your provider."
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          rightSection={
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={copied ? 'Redirect URI copied' : 'Copy redirect URI'}
              >
                {copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )}
              </ActionIcon>
            </Tooltip>
          }
        />
      )}
    </CopyButton>
  );
}

function SsoForm({ accountId, settings }: { accountId: number; settings: SsoSettingsResponse }) {
  const save = useSaveSsoMutation(accountId);
  const { connection } = settings;
  const secretSet = connection?.clientSecretSet === true;
  const form = useForm<Values>({
    initialValues: {
      domain: connection?.domain ?? settings.verifiedDomains[0] ?? '',
      issuer: connection?.issuer ?? '',
      clientId: connection?.clientId ?? '',
      clientSecret: '',
      defaultRole: connection?.defaultRole ?? 'member',
      required: connection?.required ?? false,
    },
    validate: {
      domain: (value) => (value ? null : 'Choose the domain.'),
      issuer: (value) =>
        /^https?:\/\/\S+$/.test(value.trim())
          ? null
          : 'Enter the issuer URL, such as https://login.example.com.',
      clientId: (value) => (value.trim() ? null : 'Enter the client ID your provider gave you.'),
      clientSecret: (value) =>
        value || secretSet ? null : 'Enter the client secret your provider gave you.',
    },
  });
  const { formRef, onSubmit } = useFormSubmit(form, { isPending: save.isPending, inlineFields });

  const submit = onSubmit(async (values) => {
    const body: PutSsoRequest = {
      domain: values.domain,
      issuer: values.issuer.trim(),
      clientId: values.clientId.trim(),
      defaultRole: values.defaultRole,
      required: values.required,
      ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
    };
    // The saved answer replaces the cached settings: the form is made again from them (the secret field empty).
    await save.mutateAsync(body);
    notify.success('Single sign-on saved', `People of ${values.domain} can sign in through your provider.`);
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Single sign-on settings">
      <Stack gap="md">
        {connection && (
          <Group gap="xs">
            <Badge color="green" variant="light">
              Connected
            </Badge>
            <Text size="sm" c="dimmed">
              Last changed <time dateTime={connection.updatedAt}>{formatDateTime(connection.updatedAt)}</time>
            </Text>
          </Group>
        )}
        <LabelledSelect
          label={labels.domain}
          description="People whose address is at this domain sign in through the provider."
          data={settings.verifiedDomains}
          required
          {...form.getInputProps('domain')}
        />
        <TextInput
          label={labels.issuer}
          description="Your provider’s OpenID Connect issuer; Veriform reads its configuration from there."
          placeholder="https://login.example.com"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={2048}
          {...form.getInputProps('issuer')}
        />
        <TextInput
          label={labels.clientId}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={512}
          {...form.getInputProps('clientId')}
        />
        <PasswordInput
          label={labels.clientSecret}
          description={
            secretSet
              ? 'A secret is set. Leave this empty to keep it, or enter a new one to replace it.'
              : 'Kept encrypted; it is never shown again.'
          }
          autoComplete="new-password"
          required={!secretSet}
          maxLength={2048}
          {...form.getInputProps('clientSecret')}
        />
        <LabelledSelect
          label={labels.defaultRole}
          description="The role a person gets in this account the first time they sign in through the provider."
          data={roleOptions}
          {...form.getInputProps('defaultRole')}
        />
        <Switch
          label={labels.required}
          description="People of the domain can no longer sign in with a password."
          {...form.getInputProps('required', { type: 'checkbox' })}
        />
        <RedirectUri value={settings.redirectUri} />
        <FormErrorAlert error={save.error} labels={labels} inlineFields={inlineFields} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {connection ? 'Save changes' : 'Connect provider'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Settings › Single sign-on (issue #38 item 4; owners, the route checks): connect an OpenID Connect provider for one of
 * the account's verified domains. Without a verified domain it says where to prove one.
 */
export function SsoSettings({ membership }: { membership: Membership }) {
  usePageTitle('Single sign-on');
  const accountId = membership.account.id;
  const { api } = useServices();
  const read = useQuery(ssoSettingsQueryOptions(api, accountId));

  let body: ReactNode;
  if (read.isPending) {
    body = (
      <Stack gap="sm" aria-busy="true" aria-label="Loading single sign-on">
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  } else if (read.isError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        Single sign-on could not be loaded: {errorDisplayText(read.error)}{' '}
        <Anchor component="button" type="button" onClick={() => void read.refetch()}>
          Try again
        </Anchor>
      </Alert>
    );
  } else if (read.data.verifiedDomains.length === 0 && !read.data.connection) {
    body = (
      <EmptyState icon={<IconBuildingSkyscraper size={24} />} title="No verified domain yet">
        Single sign-on works for a domain your company has proven. Add and verify one under{' '}
        <AnchorLink to="/settings/company-info" underline="always">
          Company Info › Domains
        </AnchorLink>{' '}
        first.
      </EmptyState>
    );
  } else {
    body = (
      <SsoForm key={read.data.connection?.updatedAt ?? 'new'} accountId={accountId} settings={read.data} />
    );
  }

  return (
    <SectionCard title="Single sign-on" maw={720}>
      <Text size="sm">{SSO_INTRO}</Text>
      {body}
    </SectionCard>
  );
}
