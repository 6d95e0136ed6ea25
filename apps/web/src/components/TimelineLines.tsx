import { Text, Timeline } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBrowser,
  IconCheck,
  IconChecks,
  IconFileText,
  IconMessage,
  IconSend,
  IconShieldCheck,
  IconX,
} from '@tabler/icons-react';
import { deliveryReasonOf, type TimelineEvent, type VerificationMethod } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { methodLabels } from '../lib/format';

/** Each line's time to the second (codes are typed seconds apart), in the member's zone; the date when it changes. */
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type Look = { title: string; icon: ReactNode; color: string };

const ICON = { size: 14, 'aria-hidden': true } as const;

/** What each line says and how it looks; a failure says so in words too, never by its colour alone. */
function lookOf(event: TimelineEvent): Look {
  switch (event.kind) {
    case 'page_opened':
      return { title: 'Page opened', icon: <IconBrowser {...ICON} />, color: 'gray' };
    case 'consent_shown':
      return { title: 'Consent text shown', icon: <IconFileText {...ICON} />, color: 'gray' };
    case 'code_requested':
      return { title: 'Code requested', icon: <IconSend {...ICON} />, color: 'blue' };
    case 'code_sent':
      return { title: 'Code sent', icon: <IconMessage {...ICON} />, color: 'blue' };
    case 'code_delivered':
      return { title: 'Code delivered', icon: <IconChecks {...ICON} />, color: 'teal' };
    case 'code_undelivered':
      return { title: 'Code not delivered', icon: <IconAlertTriangle {...ICON} />, color: 'red' };
    case 'code_failed':
      return { title: 'Code could not be sent', icon: <IconAlertTriangle {...ICON} />, color: 'red' };
    case 'code_entered':
      return event.correct
        ? { title: 'Code entered — right', icon: <IconCheck {...ICON} />, color: 'teal' }
        : { title: 'Code entered — wrong', icon: <IconX {...ICON} />, color: 'orange' };
    case 'verified':
      return { title: 'Verified', icon: <IconShieldCheck {...ICON} />, color: 'green' };
  }
}

/**
 * Each code's channel, from its `code_requested` line (whose detail is the channel's label): a failure's error code
 * reads as Twilio's or as SMTP's by it.
 */
function channelsOf(events: TimelineEvent[]): Map<string, VerificationMethod> {
  const byLabel = new Map(Object.entries(methodLabels).map(([method, label]) => [label, method]));
  const channels = new Map<string, VerificationMethod>();
  for (const event of events) {
    const method = event.detail === null ? undefined : byLabel.get(event.detail);
    if (event.kind === 'code_requested' && event.attemptId && (method === 'sms' || method === 'email')) {
      channels.set(event.attemptId, method);
    }
  }
  return channels;
}

/** The facts under a line's title: the channel, the version shown, the message id, a failure's reason. */
function detailsOf(event: TimelineEvent, channel: VerificationMethod | undefined): string[] {
  switch (event.kind) {
    case 'consent_shown':
      return event.detail ? [`Version ${event.detail.replace(/^v/, '')}`] : [];
    case 'code_requested':
      return event.detail ? [`By ${event.detail}`] : [];
    case 'code_sent':
      return event.detail ? [`Message ID ${event.detail}`] : [];
    case 'code_undelivered':
    case 'code_failed': {
      if (event.errorCode === null) return [];
      const reason = deliveryReasonOf(
        channel ?? (/^\d{3}$/.test(event.errorCode) ? 'email' : 'sms'),
        event.errorCode,
      );
      return [reason ? `${reason.reason} (error ${event.errorCode})` : `Error ${event.errorCode}`];
    }
    default:
      return [];
  }
}

/**
 * A verification's timeline lines (issue #18 item 6), as the detail page's card and the public certificate page show
 * them: each line's title in words, its time, and its facts.
 */
export function TimelineLines({ events }: { events: TimelineEvent[] }) {
  const channels = channelsOf(events);
  // Several codes: each line says which one it belongs to ("Code 2"), in the order they were asked for.
  const codeNumbers = new Map<string, number>();
  for (const event of events) {
    if (event.kind === 'code_requested' && event.attemptId && !codeNumbers.has(event.attemptId)) {
      codeNumbers.set(event.attemptId, codeNumbers.size + 1);
    }
  }
  const numbered = codeNumbers.size > 1;
  return (
    <Timeline bulletSize={24} lineWidth={2} role="list" aria-label="Timeline">
      {events.map((event, index) => {
        const look = lookOf(event);
        const date = dateFormat.format(new Date(event.at));
        const previous = events[index - 1];
        const newDay = !previous || dateFormat.format(new Date(previous.at)) !== date;
        const codeNumber = event.attemptId ? codeNumbers.get(event.attemptId) : undefined;
        const details = [
          ...(numbered && codeNumber !== undefined && event.kind !== 'verified'
            ? [`Code ${codeNumber}`]
            : []),
          ...detailsOf(event, event.attemptId ? channels.get(event.attemptId) : undefined),
        ];
        return (
          <Timeline.Item
            // Lines have no id of their own; their order never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            key={index}
            role="listitem"
            bullet={look.icon}
            color={look.color}
            title={look.title}
          >
            <Text size="xs" c="dimmed">
              <time dateTime={event.at}>
                {newDay ? `${date}, ` : ''}
                {timeFormat.format(new Date(event.at))}
              </time>
            </Text>
            {details.map((detail) => (
              <Text key={detail} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {detail}
              </Text>
            ))}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
