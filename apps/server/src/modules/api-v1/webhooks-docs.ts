import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_EVENT_RETENTION_DAYS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TEST_EVENT_TYPE,
  WEBHOOK_WARN_AFTER_DAYS,
  type WebhookEventType,
} from '@veriform/contracts';

/**
 * The "Webhooks" section of the API reference (issue #17 item 6): what is sent, how, and how a receiver checks it.
 * The Node example is a constant of its own because `webhooks-docs.test.ts` runs it, as printed, against a delivery
 * signed by lib/webhook-signing.ts: the page cannot show a receiver that does not verify.
 */

/** A whole program: paste it into `receiver.mjs`, `npm install standardwebhooks`, run it with the secret set. */
export const WEBHOOK_VERIFY_EXAMPLE = `import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

// The endpoint's signing secret (whsec_…), from Settings → Webhooks.
const webhook = new Webhook(process.env.VERIFORM_WEBHOOK_SECRET);
const port = Number(process.env.PORT ?? 3000);
// Ids of the events already handled; keep them in your database in production.
const handled = new Set();

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    // The raw body, byte for byte: JSON parsed and serialized again may differ and fail the check.
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      event = webhook.verify(body, request.headers);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const id = request.headers['webhook-id'];
    if (!handled.has(id)) {
      handled.add(id);
      console.log(\`\${id} \${event.type}\`, event.data);
    }
    // Answer 2xx quickly, and do slow work afterwards: a delivery waits at most 10 seconds.
    response.writeHead(204).end();
  });
}).listen(port, () => console.log(\`Listening on port \${port}\`));
`;

const eventTexts: Record<WebhookEventType, { when: string; data: string }> = {
  'verification.code_sent': { when: 'A code was sent (API or hosted page).', data: '`Verification`' },
  'verification.approved': { when: 'The right code was entered.', data: '`Verification`' },
  'verification.failed': { when: 'Locked after the 5th wrong code.', data: '`Verification`' },
  'verification.expired': { when: 'Ten minutes passed without the right code.', data: '`Verification`' },
  'verification.canceled': { when: 'Canceled through the API.', data: '`Verification`' },
  'verification.delivered': {
    when: 'The carrier reported the code’s text message delivered (once per verification).',
    data: '`Verification`',
  },
  'verification.delivery_failed': {
    when: 'The code’s message could not be delivered: `delivery.status` is `undelivered` or `failed`, `delivery.errorCode` and `delivery.reason` say why (once per verification).',
    data: '`Verification`',
  },
  'form.created': { when: 'A form was made.', data: '`Form`' },
  'form.updated': { when: 'A form’s settings changed.', data: '`Form`' },
  'form.live_changed': { when: 'A form was taken live or offline.', data: '`Form`' },
  'membership.created': { when: 'Someone joined the team.', data: '`Membership`' },
  'membership.removed': { when: 'Someone left or was removed.', data: '`Membership`, as it was' },
  'consent.revoked': {
    when: 'A consumer revoked consent: a per-se reply (STOP, ALTO…) to a code text, the public revocation page, one a member or the API recorded, or a possible one a member decided is a revocation. Honour it by its `deadline`.',
    data: '`Revocation`',
  },
  'revocation.acknowledged': { when: 'A revocation was marked honoured.', data: '`Revocation`' },
  'revocation.overdue': {
    when: 'An open revocation passed its `deadline` unacknowledged (sent once; the owners get one e-mail).',
    data: '`Revocation`',
  },
  'consent.number_reassigned': {
    when: 'A reassigned-number check answered `yes`: the number changed hands since the verification’s consent, and the contactability verdict now refuses it (`number_reassigned`). Sent once per check.',
    data: '`ReassignmentCheck`',
  },
  'legal_hold.placed': {
    when: 'An owner placed a legal hold: the evidence it reaches (the account, a form, a number or address, or one verification) is kept whatever the retention policy or an erasure request says, and cannot be redacted.',
    data: 'The hold: `id` (`lh_…`), `scope`, `formId`, `phone`, `email`, `verificationId` (the one its scope names, the others null), `reason`, `placedBy`, `placedAt`',
  },
  'legal_hold.released': {
    when: 'An owner released a legal hold, with a reason: its evidence follows the retention policy again.',
    data: 'The hold, with `releasedBy`, `releasedAt` and `releaseReason`',
  },
  'privacy_request.answered': {
    when: 'A data-subject request was carried out and answered: `answer` says what was found, erased, restricted and kept (with the legal holds that kept it). The identifiers are masked, as the request itself is once answered.',
    data: '`PrivacyRequest`',
  },
  'privacy_request.reopened': {
    when: 'Carrying out a data-subject request stopped before its answer (its last try failed, or it ran past every try): the request is `open` again, what was erased stays erased, and it can be carried out again. The identifiers are masked in the event; read the request to see them.',
    data: '`PrivacyRequest`, identifiers masked',
  },
};

const eventsTable = Object.entries(eventTexts)
  .map(([type, { when, data }]) => `| \`${type}\` | ${when} | ${data} |`)
  .join('\n');

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}

/** "5 s, 5 min, 30 min, 2 h, 5 h, 10 h (6 times)". */
function retrySchedule(): string {
  const delays = [...WEBHOOK_RETRY_DELAYS_SECONDS];
  const parts: string[] = [];
  for (let i = 0; i < delays.length; ) {
    const delay = delays[i] ?? 0;
    let run = 1;
    while (delays[i + run] === delay) run++;
    parts.push(run === 1 ? duration(delay) : `${duration(delay)} (${run} times)`);
    i += run;
  }
  return parts.join(', ');
}

const totalDays = (
  WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0) /
  (24 * 60 * 60)
).toFixed(1);

export function webhooksSection(): string {
  return `## Webhooks

Webhooks tell your systems the moment something happens, instead of you asking. Add an endpoint (an \`https://\` URL
of yours) in Settings → Webhooks and choose the event types it wants. Every event is also listed for
${WEBHOOK_EVENT_RETENTION_DAYS} days by \`GET /api/v1/events\`, so nothing you missed is lost.

### Events

| type | when | \`data\` |
|---|---|---|
${eventsTable}
| \`${WEBHOOK_TEST_EVENT_TYPE}\` | "Send test event" on the endpoint's page; sent to that endpoint only. | a sample |

\`Verification\`, \`Form\` and \`Membership\` are the objects as this API shows them (a verification with its number
in full). A \`Revocation\` is \`{id, channel, via, note, recordedBy, phone, email, words, perSeWords, status,
receivedAt, deadline, acknowledgedAt, verificationIds}\`: \`channel\` is \`sms_reply\`, \`public_page\`, \`api\` or
\`member\`; \`deadline\` the last day to honour it (YYYY-MM-DD, 10 business days after the day it was received).

### A delivery

A \`POST\` with \`Content-Type: application/json\` and the [Standard Webhooks](https://www.standardwebhooks.com/)
headers:

- \`webhook-id\`: the event's id (\`evt_…\`), the same at every attempt and replay;
- \`webhook-timestamp\`: when this attempt was sent, in Unix seconds;
- \`webhook-signature\`: \`v1,\` and the base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\` under the
  secret (the base64 after \`whsec_\`).

The body is \`{"type", "timestamp", "data"}\`: the event's type, when it happened (ISO 8601) and its object, as
\`GET /api/v1/events/{id}\` shows the event.

### Retries, order and duplicates

Any 2xx within 10 seconds is success; anything else (another status, a timeout, a redirect, which is not followed) is
retried after ${retrySchedule()} (each ±10 %): ${WEBHOOK_RETRY_DELAYS_SECONDS.length + 1} attempts over about ${totalDays}
days. An endpoint that only fails is reported to the account's owners after ${WEBHOOK_WARN_AFTER_DAYS} day and
disabled after ${WEBHOOK_DISABLE_AFTER_DAYS}; failed events can be replayed once it works again.

**Order is not promised**: a retry may arrive after a newer event; compare \`timestamp\`, or read the object's current
state with the API. **A delivery may arrive twice** (a retry after an answer that was lost, a replay): drop the ones
whose \`webhook-id\` you have handled.

### Verifying a delivery

Check the signature before trusting the body, over the **raw body** exactly as received. The signature never covers
the URL, so proxies, load balancers and tunnels that rewrite the address cannot break it. The package also refuses a
\`webhook-timestamp\` more than five minutes away from your clock, so a captured delivery cannot be replayed later.

When you rotate the secret you may keep the previous one signing for an overlap (up to 7 days): during it, each
delivery carries two signatures, space-separated, and a receiver holding either secret accepts it. Switch your
receiver to the new secret within the overlap.

A complete receiver in Node (\`npm install standardwebhooks\`, then
\`VERIFORM_WEBHOOK_SECRET=whsec_… node receiver.mjs\`):

\`\`\`js
${WEBHOOK_VERIFY_EXAMPLE}\`\`\`

Standard Webhooks libraries exist for other languages too (Python, Go, Ruby, PHP, Java, C#…); each takes the raw
body and the three headers the same way.
`;
}
