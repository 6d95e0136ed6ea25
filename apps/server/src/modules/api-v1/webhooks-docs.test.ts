import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, signDelivery } from '../../lib/webhook-signing.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newEventId } from '../webhooks/events.ts';
import { deliveryBody } from '../webhooks/sender.ts';
import { OPENAPI_PATH } from './openapi.ts';
import { WEBHOOK_VERIFY_EXAMPLE } from './webhooks-docs.ts';

const t = useTestApp();

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe('the Webhooks section of the API reference', () => {
  it('is in the document, with the headers, the body, the retries and the Node example as the test runs it', async () => {
    const response = await t.app.inject({ url: OPENAPI_PATH });
    const { description } = response.json<{ info: { description: string } }>().info;
    expect(description).toContain('## Webhooks');
    for (const text of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      '{"type", "timestamp", "data"}',
    ])
      expect(description).toContain(text);
    expect(description).toContain('5 s, 5 min, 30 min, 2 h, 5 h, 10 h (6 times)');
    expect(description).toContain('The signature never covers');
    expect(description).toContain(`\`\`\`js\n${WEBHOOK_VERIFY_EXAMPLE}\`\`\``);
  });
});

describe('the Node receiver of the docs', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
  });

  it('runs as printed: accepts a signed delivery once, also during a rotation, and refuses a changed body', async () => {
    const secret = newWebhookSecret();
    const port = await freePort();
    // As a reader runs it: the program's text as is, from a directory where `standardwebhooks` is installed.
    const child = spawn(process.execPath, ['--input-type=module', '-e', WEBHOOK_VERIFY_EXAMPLE], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      env: { ...process.env, VERIFORM_WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!output.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" in: ${output}`);
        await delay(20);
      }
    };
    await waitFor(`Listening on port ${port}`);

    const id = newEventId();
    const body = deliveryBody({
      type: 'verification.approved',
      createdAt: new Date(),
      data: { id: 'a1', status: 'approved', to: '+12015550123' },
    });
    /** `signed` as the sender signs it, and `sent` on the way (a changed body is `sent` ≠ `signed`). */
    const send = (secrets: string[], signed: string, sent = signed) =>
      fetch(`http://127.0.0.1:${port}/webhooks/veriform`, {
        method: 'POST',
        headers: {
          ...signDelivery({ id, timestamp: new Date(), body: signed, secrets }),
          'content-type': 'application/json',
        },
        body: sent,
      });

    expect((await send([secret], body)).status).toBe(204);
    await waitFor(`${id} verification.approved`);
    // A changed body fails its signature, as does a delivery signed with another secret.
    expect((await send([secret], body, body.replace('approved', 'failed'))).status).toBe(400);
    expect((await send([newWebhookSecret()], body)).status).toBe(400);
    // During a rotation two secrets sign; the receiver's one matches. The same id again is not handled twice.
    expect((await send([newWebhookSecret(), secret], body)).status).toBe(204);
    expect(output.split(`${id} verification.approved`)).toHaveLength(2);
  });
});
