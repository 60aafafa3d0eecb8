import diagnostics from 'node:diagnostics_channel';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import * as conventions from '@opentelemetry/semantic-conventions';
import { ATTR_URL_TEMPLATE } from '@opentelemetry/semantic-conventions/incubating';
import { build } from 'esbuild';
import { afterEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/index.js';
import { enableOpenTelemetry, WALLET_METRICS, WALLET_SPAN_ATTRIBUTES } from '../../src/otel/index.js';
import { TOKENS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();
const disables: (() => void)[] = [];
afterEach(() => {
  for (const disable of disables.splice(0)) disable();
  context.disable();
  propagation.disable();
  trace.disable();
});

const enable = (options?: Parameters<typeof enableOpenTelemetry>[0]) => {
  const telemetry = enableOpenTelemetry(options);
  disables.push(telemetry.disable);
  return telemetry;
};

/** A client whose fetch keeps the `traceparent` header of every attempt. */
function recordingClient(traceparents: (string | null)[]) {
  return target().client('fetch', {
    fetch: (input, init) => {
      traceparents.push(new Headers(init?.headers).get('traceparent'));
      return globalThis.fetch(input, init);
    },
  });
}

const deposit = () => ({ reference_id: `order-${crypto.randomUUID()}`, amount: 25, currency: 'KES' });

test('each attempt sends the traceparent of its own span to the service', async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  enable({ tracerProvider });
  target().sandbox.faults.inject({
    route: 'deposit',
    kind: 'respond',
    status: 503,
    headers: { 'retry-after': '0' },
    times: 1,
  });
  const traceparents: (string | null)[] = [];
  await recordingClient(traceparents).deposit(deposit(), { userToken: TOKENS.bob });
  const attempts = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
  expect(traceparents).toEqual(
    attempts.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
  );
  expect(traceparents).toHaveLength(2);
});

test('without an OpenTelemetry SDK the calls work, record nothing and send no traceparent', async () => {
  enable();
  const traceparents: (string | null)[] = [];
  const result = await recordingClient(traceparents).deposit(deposit(), { userToken: TOKENS.bob });
  expect(result.transaction_status).toBe('completed');
  expect(traceparents).toEqual([null]);
});

describe('enableOpenTelemetry options', () => {
  test('bad options are refused with every field at fault named', () => {
    let error: unknown;
    try {
      enableOpenTelemetry({ tracerProvider: {}, meterProvider: 'global', tracing: true } as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WalletConfigError);
    expect((error as WalletConfigError).issues.map((issue) => issue.path)).toEqual([
      'tracing',
      'tracerProvider',
      'meterProvider',
    ]);
  });

  test('a second enable is refused until the first is disabled', () => {
    const tracerProvider = new BasicTracerProvider();
    const first = enable({ tracerProvider });
    expect(() => enableOpenTelemetry({ tracerProvider })).toThrow(WalletConfigError);
    first.disable();
    first.disable();
    enable({ tracerProvider });
  });

  test('without an SDK it subscribes to nothing, so the client stays on its untraced path', () => {
    const channel = diagnostics.tracingChannel('merchant-wallet:request');
    enable();
    expect(channel.hasSubscribers).toBe(false);
    enable({ tracerProvider: new BasicTracerProvider() });
    expect(channel.hasSubscribers).toBe(true);
  });
});

test('every name from the semantic conventions is the constant of @opentelemetry/semantic-conventions', () => {
  expect(WALLET_SPAN_ATTRIBUTES).toMatchObject({
    httpMethod: conventions.ATTR_HTTP_REQUEST_METHOD,
    httpStatus: conventions.ATTR_HTTP_RESPONSE_STATUS_CODE,
    resendCount: conventions.ATTR_HTTP_REQUEST_RESEND_COUNT,
    serverAddress: conventions.ATTR_SERVER_ADDRESS,
    serverPort: conventions.ATTR_SERVER_PORT,
    urlFull: conventions.ATTR_URL_FULL,
    urlTemplate: ATTR_URL_TEMPLATE,
    errorType: conventions.ATTR_ERROR_TYPE,
  });
  expect(WALLET_METRICS.httpDuration).toBe(conventions.METRIC_HTTP_CLIENT_REQUEST_DURATION);
});

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    packages: 'external',
  });
  const imported = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((one) => one.path),
  );
  return [...Object.keys(result.metafile.inputs), ...imported];
}

test('the otel entry loads neither the client nor the transport, and no other entry loads OpenTelemetry', async () => {
  const otel = await inputsOf('src/otel/index.ts');
  expect(otel.filter((input) => /src\/client\/|src\/transport\//.test(input))).toEqual([]);
  for (const entry of ['src/index.ts', 'src/webhooks/index.ts', 'src/testing/index.ts']) {
    const inputs = await inputsOf(entry);
    expect(inputs.filter((input) => /@opentelemetry|src\/otel\//.test(input))).toEqual([]);
  }
});
