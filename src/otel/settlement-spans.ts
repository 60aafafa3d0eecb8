import { type Attributes, context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { WalletSettlementTrace } from '../diagnostics/settlement-trace.js';
import type { TraceHandlers } from './channels.js';
import type { Telemetry } from './instruments.js';
import { ATTR } from './names.js';
import { scopeOf } from './scope.js';

/**
 * One INTERNAL span per settlement run, `merchant_wallet.settle`, inside whatever learned the final
 * status (the payment span, a status read, a webhook, the sweeper) and around `onSettled`; linked
 * to the payment's span when this process made the payment in another trace. Records
 * `merchant_wallet.settlement.latency` for each payment this process settled.
 */
export function settlementSpans(telemetry: Telemetry): TraceHandlers<WalletSettlementTrace> {
  const spans = new WeakMap<WalletSettlementTrace, Span>();
  return {
    start(settlement) {
      const parent = context.active();
      const attributes: Attributes = {
        [ATTR.referenceId]: settlement.referenceId,
        [ATTR.endpoint]: settlement.endpoint,
        [ATTR.settlementPath]: settlement.path,
      };
      if (settlement.status !== undefined) attributes[ATTR.transactionStatus] = settlement.status;
      const links = telemetry.recent.linksFor(settlement.referenceId, parent);
      const span = telemetry.tracer.startSpan(
        'merchant_wallet.settle',
        { kind: SpanKind.INTERNAL, attributes, ...(links === undefined ? {} : { links }) },
        parent,
      );
      settlement.runInScope = scopeOf(parent, span);
      spans.set(settlement, span);
    },
    asyncEnd(settlement) {
      const span = spans.get(settlement);
      if (span === undefined) return;
      spans.delete(settlement);
      const settled = settlement.result === true;
      span.setAttribute(ATTR.settled, settled);
      if (!settled)
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: 'not settled: onSettled failed or its lease ran out',
        });
      span.end();
      const recordedAt = Date.parse(settlement.recordedAt);
      if (!settled || Number.isNaN(recordedAt)) return;
      telemetry.settlementLatency.record(Math.max(0, Date.now() - recordedAt) / 1000, {
        [ATTR.settlementPath]: settlement.path,
        [ATTR.endpoint]: settlement.endpoint,
        ...(settlement.status === undefined ? {} : { [ATTR.transactionStatus]: settlement.status }),
      });
    },
  };
}
