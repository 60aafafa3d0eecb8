/**
 * Once as a merchant sets it up: `@opentelemetry/sdk-node` with the OTLP HTTP exporter, started
 * before `enableOpenTelemetry()`, exporting to a collector over HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { expect, test } from 'vitest';
import { enableOpenTelemetry } from '../../src/otel/index.js';
import { KEYS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();
// Traces only: without these, NodeSDK also exports metrics and logs to the default localhost:4318.
process.env.OTEL_METRICS_EXPORTER = 'none';
process.env.OTEL_LOGS_EXPORTER = 'none';

interface ExportedSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A collector that keeps every span posted to /v1/traces as OTLP JSON. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, spans, close: () => server.close() };
}

test('with NodeSDK and the OTLP HTTP exporter, a withdrawal reaches the collector as its payment and attempt spans', async () => {
  const collector = await startCollector();
  const sdk = new NodeSDK({
    serviceName: 'shop',
    traceExporter: new OTLPTraceExporter({ url: collector.url }),
    instrumentations: [],
    resourceDetectors: [],
  });
  sdk.start();
  const telemetry = enableOpenTelemetry();
  try {
    const wallet = target().client('node');
    await wallet.withdraw({ email: 'alice@example.com', amount: 5, currency: 'KES' });
  } finally {
    telemetry.disable();
    await sdk.shutdown();
    collector.close();
  }
  const names = collector.spans.map((span) => span.name).sort();
  expect(names).toEqual(['POST /merchants/transactions/b2c', 'merchant_wallet.withdraw']);
  expect(new Set(collector.spans.map((span) => span.traceId)).size).toBe(1);
  expect(JSON.stringify(collector.spans)).not.toContain(KEYS.demo);
});
