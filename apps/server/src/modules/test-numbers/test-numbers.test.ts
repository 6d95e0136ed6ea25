import {
  errorTexts,
  simulatedDeliveryErrorCodes,
  type TestPhoneNumber,
  testNumberTexts,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { newCellPhone } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { toE164 } from './service.ts';

const t = useTestApp();

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

const add = (owner: Pick<Owner, 'c'>, accountId: number, cellPhone: string, code = '123456') =>
  owner.c.post('/api/test-phone-numbers', { account: accountId, cellPhone, code });

const listOf = async (person: Pick<Owner, 'c'>, accountId: number) => {
  const response = await person.c.get(`/api/test-phone-numbers?account=${accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: TestPhoneNumber[] }>().results;
};

describe('toE164', () => {
  it('reads national numbers as US and keeps international ones', () => {
    expect(toE164('(201) 555-0123')).toBe('+12015550123');
    expect(toE164('+44 20 7946 0123')).toBe('+442079460123');
    expect(toE164('12345')).toBeNull();
    expect(toE164('not a phone')).toBeNull();
  });
});

describe('/api/test-phone-numbers', () => {
  it('an owner adds a number (stored as E.164), lists it and deletes it', async () => {
    const owner = await newOwner(t.app);
    const created = await add(owner, owner.accountId, ' (201) 555-0123 ', '000111');
    expect(created.statusCode, created.body).toBe(201);
    const number = created.json<TestPhoneNumber>();
    expect(number).toEqual({
      id: expect.any(Number),
      account: owner.accountId,
      cellPhone: '+12015550123',
      code: '000111',
      // Delivered unless chosen otherwise (issue #18).
      simulatedErrorCode: null,
      created: expect.any(String),
    });
    expect(await listOf(owner, owner.accountId)).toEqual([number]);

    const deleted = await owner.c.request({ method: 'DELETE', url: `/api/test-phone-numbers/${number.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(await listOf(owner, owner.accountId)).toEqual([]);
    const again = await owner.c.request({ method: 'DELETE', url: `/api/test-phone-numbers/${number.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(notFound);
  });

  it('a simulated delivery failure is one of the offered codes; anything else is a 400 on simulatedErrorCode', async () => {
    const owner = await newOwner(t.app);
    for (const simulatedErrorCode of simulatedDeliveryErrorCodes) {
      const response = await owner.c.post('/api/test-phone-numbers', {
        account: owner.accountId,
        cellPhone: newCellPhone().e164,
        code: '123456',
        simulatedErrorCode,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<TestPhoneNumber>().simulatedErrorCode).toBe(simulatedErrorCode);
    }
    expect((await listOf(owner, owner.accountId)).map((n) => n.simulatedErrorCode)).toEqual([
      ...simulatedDeliveryErrorCodes,
    ]);
    for (const simulatedErrorCode of ['99999', '', 30003, 'delivered']) {
      const response = await owner.c.post('/api/test-phone-numbers', {
        account: owner.accountId,
        cellPhone: newCellPhone().e164,
        code: '123456',
        simulatedErrorCode,
      });
      expect(response.statusCode, String(simulatedErrorCode)).toBe(400);
      expect(response.json(), String(simulatedErrorCode)).toMatchObject({
        simulatedErrorCode: ['Choose one of the simulated outcomes.'],
        MainCode_: 'validation_error',
      });
    }
    expect(await listOf(owner, owner.accountId)).toHaveLength(simulatedDeliveryErrorCodes.length);
  });

  it('lists oldest first', async () => {
    const owner = await newOwner(t.app);
    await add(owner, owner.accountId, '2015550101');
    t.clock.advance(1000);
    await add(owner, owner.accountId, '2015550102');
    expect((await listOf(owner, owner.accountId)).map((n) => n.cellPhone)).toEqual([
      '+12015550101',
      '+12015550102',
    ]);
  });

  it('an invalid number is a 400 on cellPhone', async () => {
    const owner = await newOwner(t.app);
    const response = await add(owner, owner.accountId, '555-0100');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      cellPhone: [testNumberTexts.invalidPhone],
      MainCode_: 'validation_error',
    });
  });

  it('the code must be 6 digits', async () => {
    const owner = await newOwner(t.app);
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const response = await add(owner, owner.accountId, '2015550123', code);
      expect(response.statusCode, code).toBe(400);
      expect(response.json().code, code).toHaveLength(1);
    }
  });

  it('the same number twice in one account is a 400 on cellPhone, whatever its spelling; another account may have it', async () => {
    const owner = await newOwner(t.app);
    expect((await add(owner, owner.accountId, '+1 201 555 0123')).statusCode).toBe(201);
    const duplicate = await add(owner, owner.accountId, '(201) 555-0123', '999999');
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toMatchObject({ cellPhone: [testNumberTexts.duplicate] });
    expect(await listOf(owner, owner.accountId)).toHaveLength(1);

    const other = await newOwner(t.app, 'Other Inc.');
    expect((await add(other, other.accountId, '2015550123')).statusCode).toBe(201);
  });

  it('a member lists the numbers (with their codes) but may neither add nor delete', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const number = (await add(owner, owner.accountId, '2015550123', '424242')).json<TestPhoneNumber>();
    expect(await listOf(member, owner.accountId)).toEqual([number]);

    const created = await add(member, owner.accountId, '2015550124');
    expect(created.statusCode).toBe(403);
    expect(created.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const deleted = await member.c.request({ method: 'DELETE', url: `/api/test-phone-numbers/${number.id}` });
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    expect(await listOf(owner, owner.accountId)).toEqual([number]);
  });

  it('another account: 404 for its list, for adding to it and for deleting its number', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Ltd.');
    const number = (await add(owner, owner.accountId, '2015550123')).json<TestPhoneNumber>();

    const list = await stranger.c.get(`/api/test-phone-numbers?account=${owner.accountId}`);
    expect(list.statusCode).toBe(404);
    expect(list.json()).toEqual(notFound);
    const created = await add(stranger, owner.accountId, '2015550124');
    expect(created.statusCode).toBe(404);
    expect(created.json()).toEqual(notFound);
    const deleted = await stranger.c.request({
      method: 'DELETE',
      url: `/api/test-phone-numbers/${number.id}`,
    });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toEqual(notFound);
    expect(await listOf(owner, owner.accountId)).toEqual([number]);
  });

  it('logged out: 401', async () => {
    const owner = await newOwner(t.app);
    await owner.c.post('/api/auth/logout');
    expect((await owner.c.get(`/api/test-phone-numbers?account=${owner.accountId}`)).statusCode).toBe(401);
    expect((await add(owner, owner.accountId, '2015550123')).statusCode).toBe(401);
  });
});
