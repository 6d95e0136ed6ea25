import { Checkbox, Radio, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ALL_WEBHOOK_EVENTS,
  createWebhookEndpointRequestSchema,
  MAX_WEBHOOK_URL_LENGTH,
  type UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookEventTypesSelection,
  webhookEventTypeSchema,
  webhookEventTypes,
} from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useCreateWebhookEndpointMutation, useUpdateWebhookEndpointMutation } from '../api';
import { ALL_EVENTS_LABEL, eventTypeLabels } from '../labels';

const labels = { url: 'URL', description: 'Description', eventTypes: 'Events', enabled: 'Enabled' } as const;

/** The fields whose server errors show beside their input (the event types' only while their boxes are shown). */
const inlineFields = (scope: Scope, editing: boolean) =>
  Object.keys(labels).filter(
    (field) => !(field === 'eventTypes' && scope === 'all') && !(field === 'enabled' && editing),
  );

export const EVENT_TYPES_REQUIRED = 'Choose at least one event type, or all events.';

type Scope = 'all' | 'some';
type EndpointValues = {
  url: string;
  description: string;
  scope: Scope;
  eventTypes: WebhookEventType[];
  enabled: boolean;
};

const emptyValues: EndpointValues = { url: '', description: '', scope: 'all', eventTypes: [], enabled: true };

function valuesOf(endpoint: WebhookEndpoint): EndpointValues {
  const all = endpoint.eventTypes.includes(ALL_WEBHOOK_EVENTS);
  return {
    url: endpoint.url,
    description: endpoint.description,
    scope: all ? 'all' : 'some',
    eventTypes: all
      ? []
      : endpoint.eventTypes.flatMap((type) => {
          const known = webhookEventTypeSchema.safeParse(type);
          return known.success ? [known.data] : [];
        }),
    enabled: endpoint.enabled,
  };
}

function selectionOf(values: EndpointValues): WebhookEventTypesSelection {
  // Kept in the contract's order, so an edit that only re-ticks boxes changes nothing.
  return values.scope === 'all'
    ? [ALL_WEBHOOK_EVENTS]
    : webhookEventTypes.filter((type) => values.eventTypes.includes(type));
}

const urlSchema = createWebhookEndpointRequestSchema.shape.url;

function validate(values: EndpointValues) {
  const url =
    values.url.trim() === '' ? 'Required' : urlSchema.safeParse(values.url).error?.issues[0]?.message;
  return {
    url: url ?? null,
    eventTypes: values.scope === 'some' && values.eventTypes.length === 0 ? EVENT_TYPES_REQUIRED : null,
  };
}

const sameTypes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((type, i) => type === b[i]);

/**
 * Adding an endpoint (no `endpoint`) or editing one: its URL, a description, the events it wants (all, those added
 * later included, or a chosen few), and whether it is enabled when added. An edit sends only what changed.
 */
export function EndpointFormModal({
  accountId,
  endpoint,
  opened,
  onClose,
  onSaved,
}: {
  accountId: number;
  endpoint?: WebhookEndpoint;
  opened: boolean;
  onClose: () => void;
  onSaved: (endpoint: WebhookEndpoint) => void;
}) {
  const create = useCreateWebhookEndpointMutation(accountId);
  const update = useUpdateWebhookEndpointMutation(accountId);
  const mutation = endpoint ? update : create;
  const form = useForm<EndpointValues>({
    initialValues: endpoint ? valuesOf(endpoint) : emptyValues,
    validate,
  });
  const fields = inlineFields(form.values.scope, endpoint !== undefined);

  const save = async (values: EndpointValues): Promise<WebhookEndpoint> => {
    const eventTypes = selectionOf(values);
    if (!endpoint)
      return create.mutateAsync({
        url: values.url.trim(),
        description: values.description.trim(),
        eventTypes,
        enabled: values.enabled,
      });
    const body: UpdateWebhookEndpointRequest = {};
    if (values.url.trim() !== endpoint.url) body.url = values.url.trim();
    if (values.description.trim() !== endpoint.description) body.description = values.description.trim();
    if (!sameTypes(eventTypes, endpoint.eventTypes)) body.eventTypes = eventTypes;
    if (Object.keys(body).length === 0) return endpoint;
    return update.mutateAsync({ id: endpoint.id, body });
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      size="lg"
      form={form}
      mutation={mutation}
      labels={labels}
      inlineFields={fields}
      submit={save}
      onDone={onSaved}
      submitLabel={endpoint ? 'Save changes' : 'Add endpoint'}
    >
      <TextInput
        label={labels.url}
        description="Where events are sent, as a POST: https://example.com/webhooks/veriform"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={MAX_WEBHOOK_URL_LENGTH}
        data-autofocus
        {...form.getInputProps('url')}
      />
      <TextInput
        label={labels.description}
        description="What receives them, to tell endpoints apart: “CRM lead sync”"
        autoComplete="off"
        maxLength={500}
        {...form.getInputProps('description')}
      />
      <Radio.Group
        label={labels.eventTypes}
        value={form.values.scope}
        onChange={(value) => form.setFieldValue('scope', value === 'some' ? 'some' : 'all')}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="all" label={ALL_EVENTS_LABEL} description="Types added later are sent too." />
          <Radio value="some" label="Only the events I choose" />
        </Stack>
      </Radio.Group>
      {form.values.scope === 'some' && (
        <Checkbox.Group label="Event types" description="One at least" {...form.getInputProps('eventTypes')}>
          <Stack gap="xs" mt="xs">
            {webhookEventTypes.map((type) => (
              <Checkbox
                key={type}
                value={type}
                label={
                  <>
                    {eventTypeLabels[type]}{' '}
                    <Text span size="xs" c="dimmed" ff="monospace">
                      {type}
                    </Text>
                  </>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      {!endpoint && (
        <Switch
          label={labels.enabled}
          description="A disabled endpoint is sent nothing until it is enabled."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
      )}
    </FormModal>
  );
}
