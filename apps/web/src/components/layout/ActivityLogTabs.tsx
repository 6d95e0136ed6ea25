import { Group } from '@mantine/core';
import {
  contactabilitySearchSchema,
  revocationSearchSchema,
  type VerificationFilter,
  verificationAttemptSearchSchema,
  verificationFilterSchema,
} from '@veriform/contracts';
import { validateVerificationSearch } from '../../lib/verification-search';
import { ButtonLink } from '../links';

export type ActivityLogView = 'verifications' | 'attempts' | 'revocations' | 'contactability';

// The mode (live or test data, issue #33) carries over too: switching views never flips test data to live.
const filterKeys = [...Object.keys(verificationFilterSchema.shape), 'mode'];

/** The log's filters of a view's search (forms, categories, method, source, dates, zone, search text), nothing else. */
function filterOf(search: VerificationFilter): Partial<VerificationFilter> {
  return Object.fromEntries(Object.entries(search).filter(([key]) => filterKeys.includes(key)));
}

const attemptDefaults = verificationAttemptSearchSchema.parse({});
const revocationDefaults = revocationSearchSchema.parse({});
const contactabilityDefaults = contactabilitySearchSchema.parse({});

/**
 * The activity log's views (issue #18 item 6, issue #35): verifications, every code sent ("attempts"), the
 * revocations of consent, and the contactability verdicts. Plain links in a
 * navigation landmark, so Tab reaches both, Enter follows, middle-click opens a new tab, and the current view carries
 * aria-current. The filters both views share come along; sort, page and the attempts' delivery status do not (the
 * other view has none of them, or other pages). At phone width the four wrap onto a second line rather than
 * overflow the screen.
 */
export function ActivityLogTabs({
  current,
  search,
}: {
  current: ActivityLogView;
  /** The view's log filters, carried to the other log view (revocations and verdicts have none of them). */
  search?: VerificationFilter;
}) {
  const filter = search ? filterOf(search) : {};
  const tab = (view: ActivityLogView) => ({
    size: 'sm' as const,
    variant: view === current ? 'light' : 'subtle',
    // Mantine's subtle gray text is 3.3:1 on white; the dark text of the theme is well above AA.
    c: view === current ? undefined : 'dark.6',
    'aria-current': view === current ? ('page' as const) : undefined,
    // The router would also mark /activity-log/ current under /activity-log/attempts (a prefix match).
    activeOptions: { exact: true, includeSearch: false },
  });
  return (
    <Group component="nav" aria-label="Activity log views" gap={4} mb="md" wrap="wrap">
      <ButtonLink to="/activity-log/" search={validateVerificationSearch(filter)} {...tab('verifications')}>
        Verifications
      </ButtonLink>
      <ButtonLink to="/activity-log/attempts" search={{ ...attemptDefaults, ...filter }} {...tab('attempts')}>
        Attempts
      </ButtonLink>
      <ButtonLink to="/activity-log/revocations" search={revocationDefaults} {...tab('revocations')}>
        Revocations
      </ButtonLink>
      <ButtonLink
        to="/activity-log/contactability"
        search={contactabilityDefaults}
        {...tab('contactability')}
      >
        Contactability
      </ButtonLink>
    </Group>
  );
}
