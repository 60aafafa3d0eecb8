/**
 * The fleet soak's webhook router: the sandbox posts each deposit result here, and it forwards the
 * body to a random live instance, dropping 20 %, sending 10 % twice and holding 20 % back up to a
 * second (so deliveries arrive out of order). It remembers when each dropped callback was due.
 */
import { createServer, type Server } from 'node:http';
import type { Random } from '../soak/prng.js';

export interface WebhookRouter {
  readonly url: string;
  /** When each dropped deposit result was sent, by transaction id (ms). */
  readonly dropped: Map<string, number>;
  readonly counts: { received: number; dropped: number; duplicated: number; delayed: number };
  close(): void;
}

export async function startRouter(random: Random, ports: () => number[]): Promise<WebhookRouter> {
  const dropped = new Map<string, number>();
  const counts = { received: 0, dropped: 0, duplicated: 0, delayed: 0 };
  const forward = (body: string) => {
    const live = ports();
    const port = live[Math.floor(random.next() * live.length)];
    if (port === undefined) return;
    fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
      .then((response) => response.arrayBuffer())
      .catch(() => {});
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(200).end();
      counts.received += 1;
      const roll = random.next();
      if (roll < 0.2) {
        counts.dropped += 1;
        const id = (JSON.parse(body) as { transaction_id?: string }).transaction_id;
        if (id !== undefined) dropped.set(id, Date.now());
        return;
      }
      if (roll < 0.3) {
        counts.duplicated += 1;
        forward(body);
      }
      if (roll > 0.8) {
        counts.delayed += 1;
        setTimeout(() => forward(body), random.next() * 1_000);
        return;
      }
      forward(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/webhooks`, dropped, counts, close: () => server.close() };
}
