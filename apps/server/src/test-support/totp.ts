import type { RecoveryCodesResponse, TotpSetupResponse } from '@veriform/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { totpCode, totpStep } from '../modules/mfa/totp.ts';
import type { TestClient } from './client.ts';
import type { TestClock } from './clock.ts';

/** An authenticator app for tests (issue #38): the code of the test clock's step, or of a step `offset` away. */
export function codeAt(secret: string, clock: TestClock, offset = 0): string {
  return totpCode(secret, totpStep(clock.now()) + offset);
}

/**
 * Sets up TOTP for the signed-in client: start, then confirm with the current code. Answers the secret and the
 * recovery codes. The confirming code's step is used: move the clock 30 s on before the next code.
 */
export async function enrolTotp(
  c: TestClient,
  clock: TestClock,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await c.post('/api/auth/mfa/totp');
  if (started.statusCode !== 200) throw new Error(`start totp: ${started.statusCode} ${started.body}`);
  const { secret } = started.json<TotpSetupResponse>();
  const confirmed = await c.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, clock) });
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm totp: ${confirmed.statusCode} ${confirmed.body}`);
  return { secret, recoveryCodes: confirmed.json<RecoveryCodesResponse>().recoveryCodes };
}

/** The next 30-second step, so that a new code is not a replay of the last one used. */
export function nextStep(clock: TestClock): void {
  clock.advance(30_000);
}

/** A step-up with the authenticator app's current code. */
export function stepUpWithTotp(
  c: TestClient,
  secret: string,
  clock: TestClock,
): Promise<LightMyRequestResponse> {
  return c.post('/api/auth/step-up', { method: 'totp', code: codeAt(secret, clock) });
}
