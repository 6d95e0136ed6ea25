import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@veriform/sdk';

// The endpoint's signing secret (whsec_…), from Settings → Webhooks.
const secret = process.env.VERIFORM_WEBHOOK_SECRET;
if (!secret) throw new Error('Set VERIFORM_WEBHOOK_SECRET first (see the README).');
const port = Number(process.env.PORT ?? 3000);

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body, byte for byte: JSON parsed and serialized again may differ and fail the check.
      const event = verifyWebhook({ payload: Buffer.concat(chunks), headers: request.headers, secret });
      // event.id is the same at every retry: handle each id once.
      console.log(`${event.id} ${event.type}`);
      // Answer 2xx quickly and do slow work afterwards: a delivery waits at most 10 seconds.
      response.writeHead(204).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.log(`refused: ${error.reason}`);
      response.writeHead(400).end();
    }
  });
}).listen(port, () => console.log(`Listening on port ${port}`));
