import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../config.ts';
import { useTestApp } from './app.ts';
import { startTwilioStandIn, type TwilioStandIn } from './twilio.ts';

/**
 * A test app whose SMS go to a Twilio stand-in (twilio.ts), its hooks in the order they need: the stand-in starts
 * before the app (the app's env names it) and closes after it. With `listening`, the app also listens on a loopback
 * port and the stand-in posts its webhooks (status reports, inbound replies) there: Twilio reaching the app behind a
 * proxy, while the signatures cover PUBLIC_URL. `config` overrides the app's configuration (short timeouts). `twilio`
 * stands for the stand-in inside tests and their hooks.
 */
export function useTwilioTestApp(options: { listening?: boolean; config?: Partial<Config> } = {}) {
  let standIn: TwilioStandIn | undefined;
  const current = (): TwilioStandIn => {
    if (!standIn)
      throw new Error('useTwilioTestApp(): the stand-in exists only inside tests and their hooks');
    return standIn;
  };
  // Registered before useTestApp: "after" hooks run in reverse order, so the stand-in closes after the app.
  afterAll(async () => {
    await standIn?.close();
  });
  const t = useTestApp(async () => {
    standIn = await startTwilioStandIn();
    return { env: standIn.env(), ...(options.config ? { config: options.config } : {}) };
  });
  if (options.listening)
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      current().callbackOrigin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
  // Every member read and written on the stand-in of the moment (its methods are closures: no `this` to keep).
  const twilio = new Proxy({} as TwilioStandIn, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
  });
  return { t, twilio };
}
