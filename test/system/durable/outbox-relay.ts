/**
 * The relay process of the outbox soak: relays the outbox (examples/outbox) to a stand-in broker,
 * an HTTP endpoint that takes a batch of messages and answers 2xx once it has stored them, until
 * it is killed. Environment: DATABASE_URL, CONSUMER_URL.
 */
import pg from 'pg';
import { type OutboxMessage, relayOutbox } from '../../../examples/outbox/outbox.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const consumerUrl = process.env.CONSUMER_URL ?? '';

const publish = async (messages: readonly OutboxMessage[]) => {
  const response = await fetch(consumerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the consumer answered ${response.status}`);
};

process.stdout.write('ready\n');
await relayOutbox({ pool, publish, signal: new AbortController().signal, limit: 50, intervalMs: 100 });
