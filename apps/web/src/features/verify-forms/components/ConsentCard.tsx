import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import {
  CONSENT_TEXT_MAX,
  type ConsentVersion,
  defaultConsentTexts,
  type Language,
  languageLabels,
  publishConsentVersionRequestSchema,
  type VerifyForm,
} from '@veriform/contracts';
import { useId, useMemo, useState } from 'react';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { SectionCard } from '../../../components/layout/SectionCard';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatCount, formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { ConsentSegments } from '../../../verify/ConsentText';
import { consentVersionsQueryOptions, usePublishConsentMutation } from '../api';
import { languageOptions } from '../languages';
import { type DiffPart, wordDiff } from '../word-diff';

/** The text as the public page shows it: plain text, line breaks kept, http(s) URLs as links, never markup. */
export function ConsentPreview({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      <ConsentSegments text={text} />
    </Text>
  );
}

const versionLabel = (v: ConsentVersion) => `Version ${v.version} · ${formatDateTime(v.created)}`;

/**
 * Consent text per language (issue #18): the current version, a new one to publish (the form page's only way to
 * change it: a version is never edited), the history and a word diff between two versions.
 */
export function ConsentCard({
  form,
  company,
  canPublish,
}: {
  form: VerifyForm;
  company: string;
  canPublish: boolean;
}) {
  const { api } = useServices();
  const [language, setLanguage] = useState<Language>(form.language);
  const query = useQuery(consentVersionsQueryOptions(api, form.account, form.id));
  const versions = useMemo(
    () => (query.data ?? []).filter((v) => v.language === language),
    [query.data, language],
  );
  const current = versions[0];

  return (
    <SectionCard title="Consent text">
      <Text size="sm" c="dimmed">
        Shown above the button of the public page in the form’s language ({languageLabels[form.language]}).
        Each change is published as a new version; versions are never edited or deleted, and every
        verification records the version it was made under. Adapting the wording to your obligations is your
        responsibility.
      </Text>
      <SegmentedControl
        aria-label="Language of the consent text"
        value={language}
        onChange={(value) => setLanguage(value === 'es' ? 'es' : 'en')}
        data={languageOptions}
        w="fit-content"
      />
      {query.isPending ? (
        <Skeleton h={80} role="progressbar" aria-label="Loading consent versions" />
      ) : query.error ? (
        <Alert color="red" title="The consent versions could not be loaded">
          {errorDisplayText(query.error)}
        </Alert>
      ) : (
        <>
          <CurrentVersion current={current} language={language} />
          {canPublish ? (
            <PublishForm
              key={`${language}:${current?.id ?? 'none'}`}
              form={form}
              language={language}
              current={current}
              company={company}
            />
          ) : null}
          <History versions={versions} />
        </>
      )}
    </SectionCard>
  );
}

function CurrentVersion({ current, language }: { current: ConsentVersion | undefined; language: Language }) {
  if (!current)
    return (
      <Text size="sm">
        No consent text in {languageLabels[language]} yet: the public page shows none and asks for no
        agreement.
      </Text>
    );
  return (
    <Paper withBorder p="sm" radius="sm" aria-label="Current version" component="section">
      <Stack gap={6}>
        <Group gap="xs">
          <Text fw={600} size="sm">
            Current: version {current.version}
          </Text>
          <Badge variant="light" color={current.requireCheckbox ? 'blue' : 'gray'}>
            {current.requireCheckbox ? '“I agree” box required' : 'No checkbox'}
          </Badge>
        </Group>
        <ConsentPreview text={current.text} />
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Published {formatDateTime(current.created)}
          {current.createdBy ? ` by ${current.createdBy}` : ''} · SHA-256 {current.sha256}
        </Text>
      </Stack>
    </Paper>
  );
}

function PublishForm({
  form,
  language,
  current,
  company,
}: {
  form: VerifyForm;
  language: Language;
  current: ConsentVersion | undefined;
  company: string;
}) {
  const publish = usePublishConsentMutation(form.account, form.id);
  // Keyed by language and current version (above): a new version or language starts a new form.
  const draft = useForm({
    initialValues: {
      language,
      text: current?.text ?? defaultConsentTexts[language](company),
      requireCheckbox: current?.requireCheckbox ?? true,
    },
    validate: schemaResolver(publishConsentVersionRequestSchema, { sync: true }),
  });
  // A refused text shows beside the field; any other failure in a notification (the form has no error block).
  const { formRef, onSubmit } = useFormSubmit(draft, {
    isPending: publish.isPending,
    inlineFields: ['text'],
    onError: (failure) => {
      if (failure instanceof ApiValidationError && failure.fieldErrors.text)
        draft.setFieldError('text', failure.fieldErrors.text);
      else notify.error('The consent text was not published', errorDisplayText(failure));
    },
  });
  const submit = onSubmit(async (values) => {
    const { version, created } = await publish.mutateAsync(publishConsentVersionRequestSchema.parse(values));
    if (created) notify.success(`Consent version ${version.version} published`);
    else notify.warning('Nothing to publish', `Version ${version.version} already says exactly this.`);
  });
  const { text } = draft.getValues();

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={`New ${languageLabels[language]} version`}>
      <Stack gap="sm">
        <Textarea
          label={current ? 'New version' : 'First version'}
          description={
            current
              ? 'Edit the text and publish it as the next version.'
              : 'A starting point is filled in: adapt it to your business before publishing.'
          }
          rows={6}
          resize="vertical"
          {...draft.getInputProps('text')}
          maxLength={CONSENT_TEXT_MAX + 100}
        />
        <Text size="xs" c={text.length > CONSENT_TEXT_MAX ? 'red' : 'dimmed'} aria-live="polite">
          {formatCount(text.length)} / {formatCount(CONSENT_TEXT_MAX)} characters
        </Text>
        <Switch
          label="Require an “I agree” checkbox before the code is sent"
          {...draft.getInputProps('requireCheckbox', { type: 'checkbox' })}
        />
        <Group>
          <Button type="submit" loading={publish.isPending}>
            Publish version {(current?.version ?? 0) + 1}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function History({ versions }: { versions: ConsentVersion[] }) {
  const fromId = useId();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  if (versions.length === 0) return null;
  const options = versions.map((v) => ({ value: v.id, label: versionLabel(v) }));
  // By default the two newest: what the last publish changed.
  const left = versions.find((v) => v.id === from) ?? versions[1];
  const right = versions.find((v) => v.id === to) ?? versions[0];
  return (
    <Stack gap="xs" component="section" aria-label="Version history">
      <Text fw={600} size="sm">
        History
      </Text>
      <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {versions.map((v) => (
          <Text component="li" size="sm" key={v.id}>
            {versionLabel(v)}
            {v.createdBy ? ` · ${v.createdBy}` : ''} · {v.requireCheckbox ? 'checkbox' : 'no checkbox'} ·{' '}
            <Text span ff="monospace" size="xs">
              {v.sha256.slice(0, 12)}
            </Text>
          </Text>
        ))}
      </Stack>
      {versions.length > 1 && left && right ? (
        <Stack gap="xs">
          <Group grow align="end">
            <Select
              id={fromId}
              label="Compare"
              data={options}
              value={left.id}
              onChange={setFrom}
              allowDeselect={false}
            />
            <Select label="with" data={options} value={right.id} onChange={setTo} allowDeselect={false} />
          </Group>
          <VersionDiff before={left} after={right} />
        </Stack>
      ) : null}
    </Stack>
  );
}

function VersionDiff({ before, after }: { before: ConsentVersion; after: ConsentVersion }) {
  const parts = useMemo(() => wordDiff(before.text, after.text), [before.text, after.text]);
  const checkbox =
    before.requireCheckbox === after.requireCheckbox
      ? null
      : `Checkbox: ${before.requireCheckbox ? 'required' : 'none'} → ${after.requireCheckbox ? 'required' : 'none'}`;
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="section"
      aria-label={`Changes from version ${before.version} to version ${after.version}`}
    >
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {parts.map((part, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order, never reordered
          <DiffPartView key={index} part={part} />
        ))}
      </Text>
      {checkbox ? (
        <Text size="xs" mt={6}>
          {checkbox}
        </Text>
      ) : null}
      {before.id === after.id ? (
        <Text size="xs" c="dimmed" mt={6}>
          The same version on both sides.
        </Text>
      ) : null}
    </Paper>
  );
}

function DiffPartView({ part }: { part: DiffPart }) {
  if (part.kind === 'same') return <span>{part.text}</span>;
  if (part.kind === 'added')
    return (
      <ins style={{ background: 'var(--mantine-color-green-1)', textDecoration: 'underline' }}>
        <VisuallyHidden>added: </VisuallyHidden>
        {part.text}
      </ins>
    );
  return (
    <del style={{ background: 'var(--mantine-color-red-1)' }}>
      <VisuallyHidden>removed: </VisuallyHidden>
      {part.text}
    </del>
  );
}
