import { type Attributes, context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { WalletPaymentTrace } from '../diagnostics/payment-trace.js';
import type { TraceHandlers } from './channels.js';
import type { Telemetry } from './instruments.js';
import { ATTR } from './names.js';
import { paymentErrorTypeOf, paymentOutcomeOf } from './payment-outcome.js';
import { scopeOf } from './scope.js';

interface PaymentSpan {
  readonly span: Span;
  readonly startedAt: number;
}

/**
 * One INTERNAL span per deposit or withdrawal call, `merchant_wallet.deposit` or
 * `merchant_wallet.withdraw`, parent of its journal writes and HTTP attempts; the
 * `merchant_wallet.payment.duration` histogram, and `merchant_wallet.payment.outcome_unknown`.
 */
export function paymentSpans(telemetry: Telemetry): TraceHandlers<WalletPaymentTrace> {
  const spans = new WeakMap<WalletPaymentTrace, PaymentSpan>();
  return {
    start(payment) {
      const parent = context.active();
      const attributes: Attributes = {
        [ATTR.endpoint]: payment.endpoint,
        [ATTR.referenceId]: payment.referenceId,
        [ATTR.paymentResend]: payment.resend,
      };
      const span = telemetry.tracer.startSpan(
        `merchant_wallet.${payment.endpoint}`,
        { kind: SpanKind.INTERNAL, attributes },
        parent,
      );
      telemetry.recent.remember(payment.referenceId, span.spanContext());
      payment.runInScope = scopeOf(parent, span);
      spans.set(payment, { span, startedAt: performance.now() });
    },
    asyncEnd(payment) {
      const started = spans.get(payment);
      if (started === undefined) return;
      spans.delete(payment);
      const { span } = started;
      const outcome = paymentOutcomeOf(payment);
      const metric: Attributes = { [ATTR.endpoint]: payment.endpoint, [ATTR.paymentOutcome]: outcome };
      span.setAttribute(ATTR.paymentOutcome, outcome);
      const { result } = payment;
      if (result !== undefined) {
        span.setAttribute(ATTR.transactionId, result.transaction_id);
        span.setAttribute(ATTR.transactionStatus, result.transaction_status);
      }
      if ('error' in payment) {
        const errorType = paymentErrorTypeOf(payment.error);
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
        metric[ATTR.errorType] = errorType;
      }
      span.end();
      telemetry.paymentDuration.record((performance.now() - started.startedAt) / 1000, metric);
      if (outcome === 'unknown') {
        telemetry.outcomeUnknown.add(1, {
          [ATTR.endpoint]: payment.endpoint,
          [ATTR.paymentResend]: payment.resend,
        });
      }
    },
  };
}
