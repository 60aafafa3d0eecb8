import type { Counter, Histogram, Meter, Tracer } from '@opentelemetry/api';
import { HTTP_DURATION_BUCKETS, METRIC, SETTLEMENT_BUCKETS } from './names.js';
import type { RecentPayments } from './scope.js';

/** What every subscriber of the entry records into. */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly httpDuration: Histogram;
  readonly paymentDuration: Histogram;
  readonly outcomeUnknown: Counter;
  readonly settlementLatency: Histogram;
  readonly sweeperClaims: Counter;
  readonly webhookDedupe: Counter;
  readonly recent: RecentPayments;
}

/** The entry's instruments on `meter`. */
export function instrumentsOn(meter: Meter): Omit<Telemetry, 'tracer' | 'recent'> {
  return {
    httpDuration: meter.createHistogram(METRIC.httpDuration, {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: HTTP_DURATION_BUCKETS },
    }),
    paymentDuration: meter.createHistogram(METRIC.paymentDuration, {
      description: 'Duration of deposit and withdrawal calls, every attempt and journal write included.',
      unit: 's',
      advice: { explicitBucketBoundaries: HTTP_DURATION_BUCKETS },
    }),
    outcomeUnknown: meter.createCounter(METRIC.outcomeUnknown, {
      description: 'Payment calls whose outcome is unknown: they may have been applied.',
      unit: '{payment}',
    }),
    settlementLatency: meter.createHistogram(METRIC.settlementLatency, {
      description: "Time from a payment's journal record to its settlement (onSettled done).",
      unit: 's',
      advice: { explicitBucketBoundaries: SETTLEMENT_BUCKETS },
    }),
    sweeperClaims: meter.createCounter(METRIC.sweeperClaims, {
      description: 'Journal intents the sweeper claimed and handled.',
      unit: '{intent}',
    }),
    webhookDedupe: meter.createCounter(METRIC.webhookDedupe, {
      description: "Webhook deliveries, by the dedupe store's answer.",
      unit: '{delivery}',
    }),
  };
}
