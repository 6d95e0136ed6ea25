import { expect } from './fixtures.ts';
import { twilioStandInControlURL } from './ports.ts';

/** The journeys' reading of the texts the Twilio stand-in took (e2e/twilio-stand-in.ts's control port). */

type ReceivedSms = { to: string; body: string };

/** Every text the stand-in took for `to`, oldest first. */
export async function textsTo(to: string): Promise<ReceivedSms[]> {
  const answer = await fetch(`${twilioStandInControlURL}/received?to=${encodeURIComponent(to)}`);
  return ((await answer.json()) as { results: ReceivedSms[] }).results;
}

/**
 * The code of the newest text to `to` that carries a 6-digit code, waiting for it; with `after`, only once the stand-in
 * holds more than that many texts for `to` (a number other journeys text too).
 */
export async function codeTextedTo(to: string, { after = 0 }: { after?: number } = {}): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const results = await textsTo(to);
        code = results.length > after ? results.at(-1)?.body.match(/\b(\d{6})\b/)?.[1] : undefined;
        return code !== undefined;
      },
      { message: `a code texted to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  if (!code) throw new Error('unreachable');
  return code;
}
