import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on this machine, as an operator's system would run one (docs/product/webhooks.md):
// it keeps every delivery it gets — the raw body, over which the signature is computed, and the
// headers — and answers 204. The test servers allow a receiver on this machine
// (docs/product/webhooks.md#the-address-guard; playwright.config.ts).

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; created: string; data: Record<string, unknown> & { affiliateId?: string } };
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body, event: JSON.parse(body) as ReceivedDelivery['event'] });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/skanova-hooks`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** docs/product/webhooks.md#signatures, as a receiver writes it: the delivery is signed with `secret`, now. */
export function signedWith(secret: string, { headers, body }: Pick<ReceivedDelivery, 'headers' | 'body'>): boolean {
  const items = String(headers['skanova-signature'] ?? '')
    .split(',')
    .map((item) => item.split('='));
  const timestamp = items.find(([key]) => key === 't')?.[1];
  if (!timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return items
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
