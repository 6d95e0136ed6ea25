import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimelineEvent, VerificationTimeline } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { type Answer, createFakeServer } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { VerificationTimelineCard } from './VerificationTimelineCard';

const TIMELINE = 'GET /api/verifications/42/timeline';

const line = (over: Partial<TimelineEvent> & Pick<TimelineEvent, 'kind' | 'at'>): TimelineEvent => ({
  attemptId: null,
  correct: null,
  errorCode: null,
  detail: null,
  ...over,
});

const full: VerificationTimeline = {
  events: [
    line({ kind: 'page_opened', at: '2026-03-02T14:00:00Z' }),
    line({ kind: 'consent_shown', at: '2026-03-02T14:00:00Z', detail: 'v2 (en)' }),
    line({ kind: 'code_requested', at: '2026-03-02T14:00:20Z', attemptId: 'a1', detail: 'SMS' }),
    line({ kind: 'code_sent', at: '2026-03-02T14:00:21Z', attemptId: 'a1', detail: 'SM0123' }),
    line({ kind: 'code_undelivered', at: '2026-03-02T14:00:40Z', attemptId: 'a1', errorCode: '30003' }),
    line({ kind: 'code_requested', at: '2026-03-02T14:01:10Z', attemptId: 'a2', detail: 'E-mail' }),
    line({ kind: 'code_sent', at: '2026-03-02T14:01:11Z', attemptId: 'a2', detail: '<m1@mail>' }),
    line({ kind: 'code_entered', at: '2026-03-02T14:02:00Z', attemptId: 'a2', correct: false }),
    line({ kind: 'code_entered', at: '2026-03-02T14:02:30Z', attemptId: 'a2', correct: true }),
    line({ kind: 'verified', at: '2026-03-02T14:02:30Z', attemptId: 'a2' }),
  ],
};

function renderCard(handler: Answer | (() => Promise<Answer>)) {
  const server = createFakeServer({ [TIMELINE]: handler });
  const view = renderWithRouter(<VerificationTimelineCard accountId={21} verificationId={42} />, { server });
  return { ...view, server };
}

describe('the verification’s timeline', () => {
  it('shows a skeleton, then every line in order with its local time, in words (not colour alone)', async () => {
    let answer: (value: Answer) => void = () => {};
    const { server } = renderCard(() => new Promise<Answer>((resolve) => (answer = resolve)));
    const card = await screen.findByRole('region', { name: 'Timeline' });
    expect(within(card).getByLabelText('Loading timeline')).toHaveAttribute('aria-busy', 'true');
    answer([200, full]);

    const list = await within(card).findByRole('list', { name: 'Timeline' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.mantine-Timeline-itemTitle')?.textContent)).toEqual([
      'Page opened',
      'Consent text shown',
      'Code requested',
      'Code sent',
      'Code not delivered',
      'Code requested',
      'Code sent',
      'Code entered — wrong',
      'Code entered — right',
      'Verified',
    ]);
    expect(items[1]).toHaveTextContent('Version 2 (en)');
    // Two codes: each of their lines says which.
    expect(items[2]).toHaveTextContent('Code 1');
    expect(items[2]).toHaveTextContent('By SMS');
    expect(items[3]).toHaveTextContent('Message ID SM0123');
    expect(items[4]).toHaveTextContent('Unreachable: the phone may be off or out of coverage. (error 30003)');
    expect(items[5]).toHaveTextContent('Code 2');
    expect(items[5]).toHaveTextContent('By E-mail');
    expect(items[9]).not.toHaveTextContent('Code 2');

    const times = items.map((item) => item.querySelector('time'));
    expect(times[0]).toHaveAttribute('datetime', '2026-03-02T14:00:00Z');
    expect(times[0]?.textContent).toBe(
      `${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date('2026-03-02T14:00:00Z'))}, ${new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date('2026-03-02T14:00:00Z'))}`,
    );
    // The same day: the following lines give the time alone.
    expect(times[2]?.textContent).toBe(
      new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date('2026-03-02T14:00:20Z')),
    );
    expect(Object.fromEntries(server.calls(TIMELINE)[0]?.url.searchParams ?? [])).toEqual({ account: '21' });
  });

  it('one code: no "Code 1" labels', async () => {
    renderCard([200, { events: full.events.filter((e) => e.attemptId !== 'a1') }]);
    const list = await screen.findByRole('list', { name: 'Timeline' });
    expect(within(list).queryByText('Code 1')).not.toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(7);
  });

  it('a verification older than timelines says none was recorded', async () => {
    renderCard([200, { events: [] }]);
    expect(await screen.findByText('No timeline was recorded for this verification.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Timeline' })).not.toBeInTheDocument();
  });

  it('a failed load says so and offers Try again', async () => {
    const user = userEvent.setup();
    const { server } = renderCard([500, { detail: 'Internal error.' }]);
    const alert = await screen.findByRole('alert');
    server.on(TIMELINE, [200, full]);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Timeline' })).toBeInTheDocument();
  });
});
