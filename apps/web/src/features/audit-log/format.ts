import {
  type AuditActor,
  type AuditActorType,
  type AuditChanges,
  type AuditEventListItem,
  type AuditTargetType,
  auditActionLabels,
  auditActions,
  auditActorTypes,
  auditTargetTypes,
} from '@veriform/contracts';

/** The actor in a row: a person by e-mail, a key by its public beginning (as Settings → API keys shows it). */
export function actorText(actor: AuditActor): string {
  switch (actor.type) {
    case 'user':
      return actor.name;
    case 'api_key':
      return `API key ${actor.name}…`;
    case 'system':
      return 'Veriform';
  }
}

/**
 * The actor in words, a person by name where they have one: "Ada Lovelace (ada@example.com)". The e-mail is the one
 * recorded at the time (what the chain holds); the name is the person's now.
 */
export function actorLabel(event: AuditEventListItem): string {
  return event.actor.type === 'user' && event.actorUserName
    ? `${event.actorUserName} (${event.actor.name})`
    : actorText(event.actor);
}

export const actorTypeLabels: Record<AuditActorType, string> = {
  user: 'User',
  api_key: 'API key',
  system: 'Veriform',
};

export const targetTypeLabels: Record<AuditTargetType, string> = {
  user: 'User',
  account: 'Company',
  membership: 'Member',
  invitation: 'Invitation',
  form: 'Form',
  test_number: 'Test number',
  api_key: 'API key',
  verification: 'Verification',
  audit_event: 'Audit event',
  webhook_endpoint: 'Webhook endpoint',
  domain: 'Domain',
  webhook_event: 'Webhook event',
  revocation: 'Revocation',
  legal_hold: 'Legal hold',
  privacy_request: 'Privacy request',
  passkey: 'Passkey',
  sso_connection: 'Single sign-on',
};

/** The filter bar's choices, in the contract's order ("all" first). */
export const actionOptions = [
  { value: 'all', label: 'All actions' },
  ...auditActions.map((action) => ({ value: action, label: auditActionLabels[action] })),
];
export const actorTypeOptions = [
  { value: 'all', label: 'All' },
  ...auditActorTypes.map((type) => ({ value: type, label: actorTypeLabels[type] })),
];
export const targetTypeOptions = [
  { value: 'all', label: 'All' },
  ...auditTargetTypes.map((type) => ({ value: type, label: targetTypeLabels[type] })),
];

// Seconds matter in a log of who did what first; the date and time are the viewer's own (locale and zone).
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const fullTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'full',
  timeStyle: 'long',
});

/** An event's time in the viewer's zone: "Jan 5, 2026, 10:00:00 AM". */
export function formatEventTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** The drawer's time: the whole date, seconds and the zone's name. */
export function formatEventTimeFull(iso: string): string {
  return fullTimeFormat.format(new Date(iso));
}

export type ChangeRow = { field: string; before: unknown; after: unknown };

/**
 * The `{field: [before, after]}` entries of an event's changes, and the rest (an export's filters and row count) as
 * plain details: the shape for edits is a pair, anything else is shown as it was recorded.
 */
export function splitChanges(changes: AuditChanges): {
  pairs: ChangeRow[];
  details: [string, unknown][];
} {
  const pairs: ChangeRow[] = [];
  const details: [string, unknown][] = [];
  for (const [field, value] of Object.entries(changes ?? {})) {
    if (Array.isArray(value) && value.length === 2) pairs.push({ field, before: value[0], after: value[1] });
    else details.push([field, value]);
  }
  return { pairs, details };
}

/** A recorded value for reading: text as it is, anything else as JSON (true, 42, ["a","b"], {"q":"x"}). */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** A hash shortened for the eye (the copy button gives the whole of it): the first 10 and last 6 hex digits. */
export function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash;
}
