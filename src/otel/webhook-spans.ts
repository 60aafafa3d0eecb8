import { type Attributes, context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { WalletWebhookTrace } from '../diagnostics/webhook-trace.js';
import type { TraceHandlers } from './channels.js';
import type { Telemetry } from './instruments.js';
import { ATTR } from './names.js';
import { scopeOf } from './scope.js';

/**
 * One INTERNAL span per webhook delivery, `merchant_wallet.webhook`, under the server span of your
 * HTTP instrumentation or framework when there is one. Its read-back through `verifyWith` (the
 * verification) is its child `GET …/status/{transaction_id}` span, and `onTransaction` runs inside
 * it. Once parsed, the span carries the payment's `merchant_wallet.reference_id`, and links to the
 * payment's span when this process made the payment. Counts `merchant_wallet.webhook.dedupe`.
 */
export function webhookSpans(telemetry: Telemetry): TraceHandlers<WalletWebhookTrace> {
  const spans = new WeakMap<WalletWebhookTrace, Span>();
  return {
    start(delivery) {
      const parent = context.active();
      const span = telemetry.tracer.startSpan(
        'merchant_wallet.webhook',
        { kind: SpanKind.INTERNAL, attributes: { [ATTR.httpMethod]: delivery.method } },
        parent,
      );
      delivery.runInScope = scopeOf(parent, span);
      spans.set(delivery, span);
    },
    asyncEnd(delivery) {
      const span = spans.get(delivery);
      if (span === undefined) return;
      spans.delete(delivery);
      const attributes: Attributes = {};
      if (delivery.status !== undefined) attributes[ATTR.httpStatus] = delivery.status;
      if (delivery.outcome !== undefined) attributes[ATTR.webhookOutcome] = delivery.outcome;
      if (delivery.type !== undefined) attributes[ATTR.webhookType] = delivery.type;
      if (delivery.transactionId !== undefined) attributes[ATTR.transactionId] = delivery.transactionId;
      if (delivery.referenceId !== undefined) attributes[ATTR.referenceId] = delivery.referenceId;
      if (delivery.verified !== undefined) attributes[ATTR.webhookVerified] = delivery.verified;
      if (delivery.dedupe !== undefined) {
        attributes[ATTR.webhookDedupe] = delivery.dedupe;
        telemetry.webhookDedupe.add(1, { [ATTR.webhookDedupe]: delivery.dedupe });
      }
      span.setAttributes(attributes);
      // A link can only be added once the event is parsed, after the span started.
      const links = telemetry.recent.linksFor(delivery.referenceId, context.active());
      if (links !== undefined) span.addLinks(links);
      if (delivery.status !== undefined && delivery.status >= 500) {
        span.setAttribute(ATTR.errorType, String(delivery.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
