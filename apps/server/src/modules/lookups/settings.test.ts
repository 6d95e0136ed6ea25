import type { AuditEvent, AuditEventList, LookupSettings } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { monthOf } from './index.ts';

/**
 * The account's carrier lookup settings (issue #36): `GET`/`PATCH /api/accounts/{id}/lookups`, owners only (members
 * 403 as for the company's other settings, another account 404), everything off by default, partial changes each with
 * its `account.updated` audit event, the spec's 400s for bad input, and this month's counts.
 */

const t = useTestApp();

const urlOf = (owner: Pick<Owner, 'accountId'>) => `/api/accounts/${owner.accountId}/lookups`;

const DEFAULTS: LookupSettings = {
  lineType: false,
  simSwap: false,
  simSwapWindowDays: 7,
  refuseOnSimSwap: false,
  reassignedChecks: false,
  reassignedMaxAgeDays: 30,
  monthlyCeiling: { lineType: 1000, simSwap: 1000, reassigned: 1000 },
  thisMonth: { lineType: 0, simSwap: 0, reassigned: 0 },
};

async function settingsOf(owner: Owner): Promise<LookupSettings> {
  const response = await owner.c.get(urlOf(owner));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LookupSettings>();
}

async function eventsOf(owner: Owner): Promise<AuditEvent[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&action=account.updated`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

describe('the owner', () => {
  it('reads the defaults: everything off, a 7-day SIM swap window, 30-day checks, 1,000 of each kind a month', async () => {
    const owner = await newOwner(t.app);
    expect(await settingsOf(owner)).toEqual(DEFAULTS);
  });

  it('changes any part, the rest kept; each change is one account.updated event with what it replaced', async () => {
    const owner = await newOwner(t.app, 'Lookups Co');
    const first = await owner.c.patch(urlOf(owner), {
      simSwap: true,
      simSwapWindowDays: 3,
      refuseOnSimSwap: true,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...DEFAULTS, simSwap: true, simSwapWindowDays: 3, refuseOnSimSwap: true });

    const second = await owner.c.patch(urlOf(owner), {
      lineType: true,
      reassignedChecks: true,
      reassignedMaxAgeDays: 90,
      monthlyCeiling: { reassigned: 50_000 },
    });
    expect(second.statusCode, second.body).toBe(200);
    const expected: LookupSettings = {
      ...DEFAULTS,
      lineType: true,
      simSwap: true,
      simSwapWindowDays: 3,
      refuseOnSimSwap: true,
      reassignedChecks: true,
      reassignedMaxAgeDays: 90,
      monthlyCeiling: { lineType: 1000, simSwap: 1000, reassigned: 50_000 },
    };
    expect(second.json()).toEqual(expected);
    expect(await settingsOf(owner)).toEqual(expected);

    // The same values again change nothing and record nothing; a ceiling of 0 stops a kind.
    expect(
      (await owner.c.patch(urlOf(owner), { simSwap: true, monthlyCeiling: { reassigned: 50_000 } }))
        .statusCode,
    ).toBe(200);
    const stopped = await owner.c.patch(urlOf(owner), { monthlyCeiling: { simSwap: 0 } });
    expect(stopped.json<LookupSettings>().monthlyCeiling).toEqual({
      lineType: 1000,
      simSwap: 0,
      reassigned: 50_000,
    });

    const actor = { type: 'user', id: String(owner.userId), name: owner.email };
    const target = { type: 'account', id: String(owner.accountId), name: 'Lookups Co' };
    expect((await eventsOf(owner)).reverse()).toEqual([
      expect.objectContaining({
        actor,
        targets: [target],
        changes: {
          'lookups.simSwap': [false, true],
          'lookups.simSwapWindowDays': [7, 3],
          'lookups.refuseOnSimSwap': [false, true],
        },
      }),
      expect.objectContaining({
        actor,
        targets: [target],
        changes: {
          'lookups.lineType': [false, true],
          'lookups.reassignedChecks': [false, true],
          'lookups.reassignedMaxAgeDays': [30, 90],
          'lookups.monthlyCeiling.reassigned': [1000, 50_000],
        },
      }),
      expect.objectContaining({ changes: { 'lookups.monthlyCeiling.simSwap': [1000, 0] } }),
    ]);
  });

  it('sees this month’s lookups of each kind (UTC month), not last month’s', async () => {
    const owner = await newOwner(t.app);
    const now = t.clock.now();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    await t.db.db.insert(schema.lookupUsage).values([
      { accountId: owner.accountId, kind: 'lineType', month: monthOf(now), asked: 12 },
      { accountId: owner.accountId, kind: 'reassigned', month: monthOf(now), asked: 3 },
      { accountId: owner.accountId, kind: 'simSwap', month: monthOf(lastMonth), asked: 99 },
    ]);
    expect((await settingsOf(owner)).thisMonth).toEqual({ lineType: 12, simSwap: 0, reassigned: 3 });
  });
});

describe('who else', () => {
  it('a member gets 403 (reading and changing, as the company’s other settings); another account 404', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const denied = {
      detail: 'You are not permitted to perform that action.',
      MainCode_: 'permission_denied',
    };
    const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

    for (const response of [
      await member.c.get(urlOf(owner)),
      await member.c.patch(urlOf(owner), { simSwap: true }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(denied);
    }
    for (const response of [
      await stranger.c.get(urlOf(owner)),
      await stranger.c.patch(urlOf(owner), { simSwap: true }),
      await owner.c.get('/api/accounts/2000000000/lookups'),
      await owner.c.patch('/api/accounts/not-a-number/lookups', { simSwap: true }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await settingsOf(owner)).toEqual(DEFAULTS);
    expect(await eventsOf(owner)).toEqual([]);
  });
});

describe('bad input: 400 in the spec’s format, nothing changed', () => {
  const cases: [string, unknown, Record<string, unknown>][] = [
    [
      'a wrong type',
      { lineType: 'yes' },
      { lineType: ['Expected boolean, received string'], MainCode_: 'validation_error' },
    ],
    [
      'a number as text',
      { simSwapWindowDays: '7' },
      { simSwapWindowDays: ['Expected number, received string'], MainCode_: 'validation_error' },
    ],
    [
      'an unknown field',
      { simSwap: true, lookupEverything: true },
      {
        nonFieldErrors: ["Unrecognized key(s) in object: 'lookupEverything'"],
        MainCode_: 'validation_error',
      },
    ],
    ['nothing at all', {}, { nonFieldErrors: ['Send at least one setting.'], MainCode_: 'validation_error' }],
    [
      'an empty ceiling',
      { monthlyCeiling: {} },
      {
        monthlyCeiling: ['Send the ceiling of at least one kind: lineType, simSwap or reassigned.'],
        MainCode_: 'validation_error',
      },
    ],
    [
      'an unknown kind of ceiling',
      { monthlyCeiling: { callerName: 10 } },
      {
        monthlyCeiling: [
          "Unrecognized key(s) in object: 'callerName'",
          'Send the ceiling of at least one kind: lineType, simSwap or reassigned.',
        ],
        MainCode_: 'validation_error',
      },
    ],
    [
      'a window of 0 days',
      { simSwapWindowDays: 0 },
      { simSwapWindowDays: ['Number must be greater than or equal to 1'], MainCode_: 'validation_error' },
    ],
    [
      'a window of 91 days',
      { simSwapWindowDays: 91 },
      { simSwapWindowDays: ['Number must be less than or equal to 90'], MainCode_: 'validation_error' },
    ],
    [
      'checks older than a year',
      { reassignedMaxAgeDays: 366 },
      { reassignedMaxAgeDays: ['Number must be less than or equal to 365'], MainCode_: 'validation_error' },
    ],
    [
      'a negative ceiling',
      { monthlyCeiling: { lineType: -1 } },
      {
        'monthlyCeiling.lineType': ['Number must be greater than or equal to 0'],
        MainCode_: 'validation_error',
      },
    ],
    [
      'a ceiling over a million',
      { monthlyCeiling: { reassigned: 1_000_001 } },
      {
        'monthlyCeiling.reassigned': ['Number must be less than or equal to 1000000'],
        MainCode_: 'validation_error',
      },
    ],
    [
      'a fraction',
      { reassignedMaxAgeDays: 1.5 },
      { reassignedMaxAgeDays: ['Expected int, received number'], MainCode_: 'validation_error' },
    ],
    [
      'a null setting',
      { refuseOnSimSwap: null },
      { refuseOnSimSwap: ['Expected boolean, received null'], MainCode_: 'validation_error' },
    ],
  ];

  // One owner for every case: a refused change leaves the defaults and records nothing.
  let owner: Owner;
  beforeAll(async () => {
    owner = await newOwner(t.app);
  });

  it.each(cases)('%s', async (_name, body, expected) => {
    const response = await owner.c.patch(urlOf(owner), body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(expected);
    expect(await settingsOf(owner)).toEqual(DEFAULTS);
    expect(await eventsOf(owner)).toEqual([]);
  });
});
