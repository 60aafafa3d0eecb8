import { context, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  METRIC_HTTP_CLIENT_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TOKENS, TRANSPORTS, useServerTarget } from '../integration/harness.js';
import { parentOf, useOtel } from './support/otel-harness.js';

const target = useServerTarget();
const otel = useOtel();

const DEPOSIT_SPAN = 'POST /merchants/transactions/c2b';
const PROVIDERS_SPAN = 'GET /merchants/accounts/providers';

/** A call a merchant's request makes: a deposit answered 503 `failures` times first (to some deposit), or a read. */
const callArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), failures: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('read' as const) }),
);

/** The histogram's count of recorded attempts so far (the reader is cumulative). */
async function recordedAttempts(): Promise<number> {
  const { points } = await otel.metric(METRIC_HTTP_CLIENT_REQUEST_DURATION);
  return points.reduce((sum, point) => sum + (typeof point.value === 'number' ? 0 : point.value.count), 0);
}

const resendCountOf = (span: ReadableSpan) => Number(span.attributes[ATTR_HTTP_REQUEST_RESEND_COUNT] ?? 0);

describe.each(TRANSPORTS)('over the %s transport', (transport) => {
  test('concurrent payments and reads, retried in any order: each attempt is the child of its own call, never of another attempt', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArbitrary, { minLength: 1, maxLength: 8 }), async (calls) => {
        target().sandbox.faults.clear();
        otel.exporter.reset();
        const before = await recordedAttempts();
        const failures = calls.reduce((sum, call) => sum + (call.kind === 'deposit' ? call.failures : 0), 0);
        fc.pre(failures <= 10);
        if (failures > 0) {
          target().sandbox.faults.inject({
            route: 'deposit',
            kind: 'respond',
            status: 503,
            headers: { 'retry-after': '0' },
            body: { code: 'internal_server_error', message: 'try again' },
            times: failures,
          });
        }
        // Any deposit may draw every fault: at most the client's 10 retries in all.
        const wallet = target().client(transport, { maxRetries: 10 });
        const references: string[] = [];
        const request = otel.tracerProvider.getTracer('shop').startSpan('shop request');
        const settled = await context.with(trace.setSpan(context.active(), request), () =>
          Promise.allSettled(
            calls.map((call) => {
              if (call.kind === 'read') return wallet.listProviders({ userToken: TOKENS.bob });
              const reference = `order-${crypto.randomUUID()}`;
              references.push(reference);
              return wallet.deposit(
                { reference_id: reference, amount: 1, currency: 'KES' },
                { userToken: TOKENS.bob },
              );
            }),
          ),
        );
        request.end();
        await wallet.close();
        const rejected = settled.flatMap((call) => (call.status === 'rejected' ? [String(call.reason)] : []));
        expect(rejected).toEqual([]);

        const spans = otel.spans();
        const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
        const requestId = request.spanContext().spanId;
        const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
        for (const attempt of clients) {
          expect(byId.get(parentOf(attempt) ?? '')?.kind).not.toBe(SpanKind.CLIENT);
          expect(attempt.spanContext().traceId).toBe(request.spanContext().traceId);
        }
        for (const reference of references) {
          const payments = spans.filter(
            (span) =>
              span.name === 'merchant_wallet.deposit' &&
              span.attributes['merchant_wallet.reference_id'] === reference,
          );
          expect(payments).toHaveLength(1);
          const payment = payments[0] as ReadableSpan;
          expect(parentOf(payment)).toBe(requestId);
          const attempts = clients.filter(
            (span) => span.attributes['merchant_wallet.reference_id'] === reference,
          );
          for (const attempt of attempts) {
            expect(attempt.name).toBe(DEPOSIT_SPAN);
            expect(parentOf(attempt)).toBe(payment.spanContext().spanId);
          }
          expect(attempts.map(resendCountOf).sort((a, b) => a - b)).toEqual(
            attempts.map((_, index) => index),
          );
        }
        const reads = clients.filter((span) => span.name === PROVIDERS_SPAN);
        expect(reads).toHaveLength(calls.length - references.length);
        for (const read of reads) expect(parentOf(read)).toBe(requestId);
        expect(clients.filter((span) => span.name === DEPOSIT_SPAN)).toHaveLength(
          references.length + failures,
        );
        expect((await recordedAttempts()) - before).toBe(clients.length);
      }),
      { numRuns: 12 },
    );
  });
});
