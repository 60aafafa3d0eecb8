import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  METRIC_HTTP_CLIENT_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';
import { ATTR_URL_TEMPLATE } from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, test } from 'vitest';
import { WalletApiError, WalletOutcomeUnknownError } from '../../src/index.js';
import { urlTemplateOf } from '../../src/otel/http-spans.js';
import { KEYS, TOKENS, TRANSPORTS, useServerTarget } from '../integration/harness.js';
import { everythingRecorded, parentOf, useOtel } from './support/otel-harness.js';

const target = useServerTarget();
const otel = useOtel();

const DEPOSIT_SPAN = 'POST /merchants/transactions/c2b';
const deposit = () => ({ reference_id: `order-${crypto.randomUUID()}`, amount: 25, currency: 'KES' });

describe.each(TRANSPORTS)('over the %s transport', (transport) => {
  test('a deposit retried once is one payment span over two CLIENT attempt spans named by url.template', async () => {
    target().sandbox.faults.inject({
      route: 'deposit',
      kind: 'respond',
      status: 503,
      headers: { 'retry-after': '0' },
      body: { code: 'internal_server_error', message: 'try again' },
      times: 1,
    });
    const wallet = target().client(transport);
    const body = deposit();
    const result = await wallet.deposit(body, { userToken: TOKENS.bob });

    const payment = otel.span('merchant_wallet.deposit');
    const attempts = otel.spans().filter((span) => span.name === DEPOSIT_SPAN);
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
    expect(payment.kind).toBe(SpanKind.INTERNAL);
    expect(payment.attributes).toMatchObject({
      'merchant_wallet.endpoint': 'deposit',
      'merchant_wallet.reference_id': body.reference_id,
      'merchant_wallet.payment.outcome': 'applied',
      'merchant_wallet.transaction_id': result.transaction_id,
      'merchant_wallet.transaction_status': result.transaction_status,
    });
    expect(payment.status.code).toBe(SpanStatusCode.UNSET);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(attempt)).toBe(payment.spanContext().spanId);
      expect(attempt.spanContext().traceId).toBe(payment.spanContext().traceId);
    }
    const { hostname, port } = new URL(target().baseUrl);
    expect(first.attributes).toEqual({
      [ATTR_HTTP_REQUEST_METHOD]: 'POST',
      [ATTR_SERVER_ADDRESS]: hostname,
      [ATTR_SERVER_PORT]: Number(port),
      [ATTR_URL_FULL]: `${target().baseUrl.replace(/\/?$/, '/')}merchants/transactions/c2b`,
      [ATTR_URL_TEMPLATE]: '/merchants/transactions/c2b',
      [ATTR_HTTP_RESPONSE_STATUS_CODE]: 503,
      [ATTR_ERROR_TYPE]: 'internal_server_error',
      'merchant_wallet.endpoint': 'deposit',
      'merchant_wallet.reference_id': body.reference_id,
    });
    expect(first.status.code).toBe(SpanStatusCode.ERROR);
    expect(second.attributes[ATTR_HTTP_REQUEST_RESEND_COUNT]).toBe(1);
    expect(second.attributes[ATTR_HTTP_RESPONSE_STATUS_CODE]).toBe(200);
    expect(second.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(second.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a status read is named by its template, never by the transaction id, and is timed in seconds', async () => {
    const wallet = target().client(transport);
    const { transaction_id: id } = await wallet.deposit(deposit(), { userToken: TOKENS.bob });
    otel.exporter.reset();
    await wallet.getTransaction(id);
    const read = otel.span('GET /merchants/transactions/status/{transaction_id}');
    expect(read.attributes[ATTR_URL_TEMPLATE]).toBe('/merchants/transactions/status/{transaction_id}');
    expect(read.attributes[ATTR_URL_FULL]).toContain(encodeURIComponent(id));
    expect(parentOf(read)).toBeUndefined();

    const duration = await otel.metric(METRIC_HTTP_CLIENT_REQUEST_DURATION);
    expect(duration.unit).toBe('s');
    const reads = duration.points.filter((point) => point.attributes[ATTR_HTTP_REQUEST_METHOD] === 'GET');
    expect(reads).toEqual([
      {
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: 'GET',
          [ATTR_SERVER_ADDRESS]: read.attributes[ATTR_SERVER_ADDRESS],
          [ATTR_SERVER_PORT]: read.attributes[ATTR_SERVER_PORT],
          [ATTR_URL_TEMPLATE]: '/merchants/transactions/status/{transaction_id}',
          [ATTR_HTTP_RESPONSE_STATUS_CODE]: 200,
        },
        value: expect.objectContaining({ count: 1 }),
      },
    ]);
  });

  test('a refused deposit ends refused, with the error code on the payment and on the attempt', async () => {
    target().sandbox.faults.inject({
      route: 'deposit',
      kind: 'error',
      code: 'insufficient_balance',
      times: 1,
    });
    const wallet = target().client(transport);
    await expect(wallet.deposit(deposit(), { userToken: TOKENS.bob })).rejects.toBeInstanceOf(WalletApiError);
    const payment = otel.span('merchant_wallet.deposit');
    expect(payment.attributes['merchant_wallet.payment.outcome']).toBe('refused');
    expect(payment.attributes[ATTR_ERROR_TYPE]).toBe('insufficient_balance');
    expect(payment.status.code).toBe(SpanStatusCode.ERROR);
    expect(otel.span(DEPOSIT_SPAN).attributes[ATTR_ERROR_TYPE]).toBe('insufficient_balance');
    expect((await otel.metric('merchant_wallet.payment.outcome_unknown')).points).toEqual([]);
  });

  test('a withdrawal whose answer was lost is unknown, counted, and its attempt names the failure class', async () => {
    target().sandbox.faults.inject({ route: 'withdraw', kind: 'drop-after', times: 1 });
    const wallet = target().client(transport, { maxRetries: 0 });
    const error = await wallet
      .withdraw({ email: 'alice@example.com', amount: 5, currency: 'KES' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    const payment = otel.span('merchant_wallet.withdraw');
    expect(payment.attributes).toMatchObject({
      'merchant_wallet.payment.outcome': 'unknown',
      'merchant_wallet.reference_id': (error as WalletOutcomeUnknownError).referenceId,
      [ATTR_ERROR_TYPE]: 'WalletOutcomeUnknownError',
    });
    expect(otel.span('POST /merchants/transactions/b2c').attributes[ATTR_ERROR_TYPE]).toBe(
      'WalletConnectionError',
    );
    expect((await otel.metric('merchant_wallet.payment.outcome_unknown')).points).toEqual([
      {
        attributes: { 'merchant_wallet.endpoint': 'withdraw', 'merchant_wallet.payment.resend': false },
        value: 1,
      },
    ]);
  });

  test('no span or attribute carries the API key or the user token', async () => {
    target().sandbox.faults.inject({ route: 'providers', kind: 'error', code: 'invalid_api_key', times: 1 });
    const wallet = target().client(transport);
    await wallet.deposit(deposit(), { userToken: TOKENS.bob });
    await wallet.listProviders({ userToken: TOKENS.bob }).catch(() => undefined);
    const recorded = everythingRecorded(otel.spans());
    expect(otel.spans().length).toBeGreaterThanOrEqual(3);
    expect(recorded).not.toContain(KEYS.demo);
    expect(recorded).not.toContain(TOKENS.bob);
  });
});

test('url.template keeps the base URL path and names the variable part', () => {
  const url = new URL('https://api.example.com/v1/merchants/transactions/status/tx%2F1');
  expect(urlTemplateOf({ endpoint: 'status', url })).toBe(
    '/v1/merchants/transactions/status/{transaction_id}',
  );
  const root = new URL('https://api.example.com/merchants/accounts/providers');
  expect(urlTemplateOf({ endpoint: 'providers', url: root })).toBe('/merchants/accounts/providers');
});
