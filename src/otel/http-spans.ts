import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { WalletRequestTrace } from '../transport/request-trace.js';
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

/** What every attempt to one endpoint of one base URL has in common: its span name and attributes. */
interface Route {
  /** The attempt's URL up to its last `/`: the transaction id of a status read is after it. */
  readonly prefix: string;
  readonly spanName: string;
  readonly template: string;
  readonly address: string;
  readonly port: number;
  /** The metric attributes of an attempt answered with each status and no `error.type`, built once. */
  readonly answered: Map<number, Attributes>;
}

/**
 * The {@link Route} of an attempt, remembered by endpoint and URL without its last segment (the
 * transaction id of a status read; the same URL otherwise): a process talks to one or two base URLs,
 * and this runs per attempt, so the URL is parsed once per route, and an attempt finds its route by
 * comparing its URL with the few of its endpoint, building no string.
 */
function cachedRoutes() {
  const routes = new Map<WalletRequestTrace['endpoint'], Route[]>();
  return (attempt: WalletRequestTrace): Route => {
    const { href, endpoint } = attempt;
    const cut = href.lastIndexOf('/');
    const known = routes.get(endpoint);
    if (known !== undefined) {
      for (const route of known) {
        if (route.prefix.length === cut && href.startsWith(route.prefix)) return route;
      }
    }
    const { url } = attempt;
    const template = urlTemplateOf({ endpoint, url });
    const route: Route = {
      prefix: href.slice(0, cut),
      spanName: `${attempt.method} ${template}`,
      template,
      address: url.hostname,
      port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      answered: new Map(),
    };
    if (known === undefined) routes.set(endpoint, [route]);
    else if (known.length < 16) known.push(route);
    return route;
  };
}

/** The metric attributes of an attempt on `route`: shared by every attempt answered alike. */
function metricAttributes(
  route: Route,
  method: string,
  status: number | undefined,
  errorType: string | undefined,
): Attributes {
  const shared = errorType === undefined && status !== undefined;
  if (shared) {
    const built = route.answered.get(status);
    if (built !== undefined) return built;
  }
  const attributes: Attributes = {
    [ATTR.httpMethod]: method,
    [ATTR.serverAddress]: route.address,
    [ATTR.serverPort]: route.port,
    [ATTR.urlTemplate]: route.template,
  };
  if (status !== undefined) attributes[ATTR.httpStatus] = status;
  if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
  // Never changed once recorded: the metrics SDK may keep the object as the series' attributes.
  if (shared && route.answered.size < 16) route.answered.set(status, attributes);
  return attributes;
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
  readonly route: Route;
}

/**
 * Where an attempt's span waits for its `asyncEnd`: on the published context itself, under a key no
 * other subscriber knows, rather than in a `WeakMap` (whose entries cost the garbage collector).
 */
const ATTEMPT_SPAN = Symbol('merchant-wallet/otel attempt span');

type SpannedAttempt = WalletRequestTrace & { [ATTEMPT_SPAN]?: AttemptSpan | undefined };

/**
 * One CLIENT span per HTTP attempt, named `{method} {url.template}`, a child of the caller's active
 * span (the payment's, for a deposit or withdrawal), with its `traceparent` sent to the service and
 * any HTTP instrumentation below it suppressed; and `http.client.request.duration`.
 */
export function httpSpans(telemetry: Telemetry): TraceHandlers<SpannedAttempt> {
  const routeOf = cachedRoutes();
  return {
    start(attempt) {
      const route = routeOf(attempt);
      const attributes: Attributes = {
        [ATTR.httpMethod]: attempt.method,
        [ATTR.serverAddress]: route.address,
        [ATTR.serverPort]: route.port,
        [ATTR.urlTemplate]: route.template,
        [ATTR.urlFull]: attempt.href,
        [ATTR.endpoint]: attempt.endpoint,
      };
      if (attempt.attempt > 1) attributes[ATTR.resendCount] = attempt.attempt - 1;
      if (attempt.referenceId !== undefined) attributes[ATTR.referenceId] = attempt.referenceId;
      const parent = context.active();
      const span = telemetry.tracer.startSpan(route.spanName, { kind: SpanKind.CLIENT, attributes }, parent);
      // A span that neither records nor propagates (sampled out with no context to pass on) needs no scope.
      if (span.isRecording() || trace.isSpanContextValid(span.spanContext())) {
        const spanContext = trace.setSpan(parent, span);
        const carrier: Record<string, string> = {};
        propagation.inject(spanContext, carrier);
        attempt.propagation = carrier;
        attempt.runInScope = attemptScopeOf(spanContext);
      }
      attempt[ATTEMPT_SPAN] = { span, startedAt: performance.now(), route };
    },
    asyncEnd(attempt) {
      const started = attempt[ATTEMPT_SPAN];
      if (started === undefined) return;
      attempt[ATTEMPT_SPAN] = undefined;
      const { span, route } = started;
      const { status, requestId } = attempt;
      const errorType = errorTypeOf(attempt);
      if (status !== undefined) span.setAttribute(ATTR.httpStatus, status);
      if (requestId !== undefined) span.setAttribute(ATTR.requestId, requestId);
      if (errorType !== undefined) {
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      telemetry.httpDuration.record(
        (performance.now() - started.startedAt) / 1000,
        metricAttributes(route, attempt.method, status, errorType),
      );
    },
  };
}
