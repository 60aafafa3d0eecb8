import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { WalletRequestTrace } from '../diagnostics/request-trace.js';
import type { TraceHandlers } from './channels.js';
import type { Telemetry } from './instruments.js';
import { ATTR } from './names.js';
import { attemptScopeOf } from './scope.js';

/** Each endpoint's path under the base URL, its variable parts named: the low-cardinality `url.template`. */
const PATH_TEMPLATES = {
  deposit: 'merchants/transactions/c2b',
  withdraw: 'merchants/transactions/b2c',
  status: 'merchants/transactions/status/{transaction_id}',
  providers: 'merchants/accounts/providers',
} as const;

/** How many path segments each template has: that many are the endpoint's, the rest the base URL's. */
const TEMPLATE_SEGMENTS = Object.fromEntries(
  Object.entries(PATH_TEMPLATES).map(([endpoint, template]) => [endpoint, template.split('/').length]),
) as Record<keyof typeof PATH_TEMPLATES, number>;

/** `url.template` of an attempt: the base URL's path (`/v1`, or none) and the endpoint's template. */
export function urlTemplateOf(attempt: Pick<WalletRequestTrace, 'endpoint' | 'url'>): string {
  const segments = attempt.url.pathname.split('/');
  // Every value in the path is percent-encoded, `/` included, so the last segments are the endpoint's.
  segments.length -= TEMPLATE_SEGMENTS[attempt.endpoint];
  return `${segments.join('/')}/${PATH_TEMPLATES[attempt.endpoint]}`;
}

/**
 * {@link urlTemplateOf}, remembered by endpoint and path without its last segment (the transaction id of a status
 * read; the same path otherwise): a process talks to one or two base URLs, and this runs per attempt.
 */
function cachedTemplates() {
  const templates = new Map<string, string>();
  return (attempt: Pick<WalletRequestTrace, 'endpoint' | 'url'>): string => {
    const { pathname } = attempt.url;
    const key = `${attempt.endpoint} ${pathname.slice(0, pathname.lastIndexOf('/'))}`;
    let template = templates.get(key);
    if (template === undefined) {
      template = urlTemplateOf(attempt);
      if (templates.size < 64) templates.set(key, template);
    }
    return template;
  };
}

/** The class of error the SDK raises for an attempt that got no usable answer. */
const FAILURE_CLASS = {
  network: 'WalletConnectionError',
  timeout: 'WalletTimeoutError',
  aborted: 'WalletAbortError',
  unreadable: 'WalletResponseValidationError',
} as const;

/**
 * `error.type`: the documented error code of a refused answer, else its status for a 4xx/5xx, else
 * the error class of an attempt without a usable answer; `undefined` for a success.
 */
export function errorTypeOf(attempt: WalletRequestTrace): string | undefined {
  const { outcome, status } = attempt;
  if (outcome === undefined) return undefined;
  if (outcome !== 'response') return FAILURE_CLASS[outcome];
  if (status === undefined || status < 400) return undefined;
  return attempt.errorCode ?? String(status);
}

interface AttemptSpan {
  readonly span: Span;
  readonly startedAt: number;
  readonly metric: Attributes;
}

/**
 * One CLIENT span per HTTP attempt, named `{method} {url.template}`, a child of the caller's active
 * span (the payment's, for a deposit or withdrawal), with its `traceparent` sent to the service and
 * any HTTP instrumentation below it suppressed; and `http.client.request.duration`.
 */
export function httpSpans(telemetry: Telemetry): TraceHandlers<WalletRequestTrace> {
  const spans = new WeakMap<WalletRequestTrace, AttemptSpan>();
  const templateOf = cachedTemplates();
  return {
    start(attempt) {
      const { url, method } = attempt;
      const template = templateOf(attempt);
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
      const metric: Attributes = {
        [ATTR.httpMethod]: method,
        [ATTR.serverAddress]: url.hostname,
        [ATTR.serverPort]: port,
        [ATTR.urlTemplate]: template,
      };
      const attributes: Attributes = {
        ...metric,
        [ATTR.urlFull]: url.href,
        [ATTR.endpoint]: attempt.endpoint,
      };
      if (attempt.attempt > 1) attributes[ATTR.resendCount] = attempt.attempt - 1;
      if (attempt.referenceId !== undefined) attributes[ATTR.referenceId] = attempt.referenceId;
      const parent = context.active();
      const span = telemetry.tracer.startSpan(
        `${method} ${template}`,
        { kind: SpanKind.CLIENT, attributes },
        parent,
      );
      // A span that neither records nor propagates (sampled out with no context to pass on) needs no scope.
      if (span.isRecording() || trace.isSpanContextValid(span.spanContext())) {
        const spanContext = trace.setSpan(parent, span);
        const carrier: Record<string, string> = {};
        propagation.inject(spanContext, carrier);
        attempt.propagation = carrier;
        attempt.runInScope = attemptScopeOf(spanContext);
      }
      spans.set(attempt, { span, startedAt: performance.now(), metric });
    },
    asyncEnd(attempt) {
      const started = spans.get(attempt);
      if (started === undefined) return;
      spans.delete(attempt);
      const { span, metric } = started;
      const errorType = errorTypeOf(attempt);
      if (attempt.status !== undefined) {
        span.setAttribute(ATTR.httpStatus, attempt.status);
        metric[ATTR.httpStatus] = attempt.status;
      }
      if (attempt.requestId !== undefined) span.setAttribute(ATTR.requestId, attempt.requestId);
      if (errorType !== undefined) {
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
        metric[ATTR.errorType] = errorType;
      }
      span.end();
      telemetry.httpDuration.record((performance.now() - started.startedAt) / 1000, metric);
    },
  };
}
