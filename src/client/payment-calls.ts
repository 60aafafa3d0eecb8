import { WalletRequestValidationError } from '../errors.js';
import { checkMetadata } from '../journal/checks.js';
import type { NewPaymentIntent, PaymentIntentEndpoint } from '../journal/types.js';
import { paymentAnswer } from '../schemas/answer-match.js';
import { DepositRequest, WithdrawRequest } from '../schemas/requests.js';
import { DepositResult, WithdrawResult } from '../schemas/responses.js';
import { validateRequest } from '../schemas/validate.js';
import type { CallSpec } from '../transport/send.js';
import { flatUuid } from './flat-uuid.js';
import {
  type CheckedRequestOptions,
  checkRequestOptions,
  type PaymentOptions,
  type RequestOptions,
  requireUserToken,
  type UserRequestOptions,
} from './request-options.js';

/** What a call itself puts in its journal intent; the engine adds who sends it. */
export type CallIntent = Pick<
  NewPaymentIntent,
  'referenceId' | 'endpoint' | 'body' | 'userEmail' | 'metadata'
>;

/** A money-moving call, checked and ready: its per-call options, its journal intent and what `send` performs. */
export interface PaymentCall<T> {
  readonly options: CheckedRequestOptions;
  readonly intent: CallIntent;
  readonly spec: CallSpec<T>;
}

/** The journal intent of a payment: its e-mail and metadata only when given, so intents stay small. */
function intentOf(
  referenceId: string,
  endpoint: PaymentIntentEndpoint,
  body: Readonly<Record<string, unknown>>,
  options: PaymentOptions | undefined,
  userEmail: string | undefined,
): CallIntent {
  const metadata = checkMetadata(options?.metadata, 'options.metadata');
  return {
    referenceId,
    endpoint,
    body,
    ...(userEmail === undefined ? {} : { userEmail }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/**
 * The deposit (C2B) call for `body`.
 * @throws {WalletRequestValidationError} for a bad body, a missing user token or bad per-call options.
 */
export function depositCall(
  body: DepositRequest,
  options: UserRequestOptions & PaymentOptions,
  userEmail?: string,
): PaymentCall<DepositResult> {
  const request = validateRequest(DepositRequest, body, 'deposit request');
  const userToken = requireUserToken(options);
  const referenceId = request.reference_id;
  return {
    options: checkRequestOptions(options, true),
    intent: intentOf(referenceId, 'deposit', request, options, userEmail),
    spec: {
      endpoint: 'deposit',
      validate: paymentAnswer(DepositResult, 'deposit', request),
      method: 'POST',
      path: 'merchants/transactions/c2b',
      body: request,
      referenceId,
      userToken,
    },
  };
}

/**
 * The withdrawal (B2C) call for `body`, under a generated `reference_id` when it has none, so the
 * SDK's own retries stay safe.
 * @throws {WalletRequestValidationError} for a bad body or bad per-call options.
 */
export function withdrawCall(
  body: WithdrawRequest,
  options: RequestOptions & PaymentOptions,
): PaymentCall<WithdrawResult> {
  const request = validateRequest(WithdrawRequest, body, 'withdraw request');
  const referenceId = request.reference_id ?? flatUuid();
  const sent = { ...request, reference_id: referenceId };
  return {
    options: checkRequestOptions(options, true),
    intent: intentOf(referenceId, 'withdraw', sent, options, undefined),
    spec: {
      endpoint: 'withdraw',
      validate: paymentAnswer(WithdrawResult, 'withdraw', sent),
      method: 'POST',
      path: 'merchants/transactions/b2c',
      body: sent,
      referenceId,
    },
  };
}

/**
 * Refuses a re-send whose body does not carry the reference id of the payment it settles: a body
 * without one would be sent under a fresh id, a second payment, and one naming another reference
 * would settle the wrong payment.
 * @throws {WalletRequestValidationError} naming `body.reference_id`.
 */
function checkResentReference(referenceId: string | undefined, body: unknown): void {
  const named =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).reference_id : undefined;
  if (referenceId !== undefined && named === referenceId) return;
  const found = named === undefined ? 'is missing' : `is ${JSON.stringify(named)}`;
  const wanted = referenceId === undefined ? 'the payment names none' : `the payment's is "${referenceId}"`;
  throw new WalletRequestValidationError([
    {
      path: 'body.reference_id',
      message: `${found} and ${wanted}: a re-send goes under the reference id of the payment it settles, never another`,
    },
  ]);
}

/**
 * The call that sends an unknown payment's body again to its endpoint, under its own reference id.
 * @throws {WalletRequestValidationError} when the body does not carry `referenceId`, or is no valid request.
 */
export function resendCall(
  endpoint: PaymentIntentEndpoint,
  referenceId: string | undefined,
  body: unknown,
  options: Partial<UserRequestOptions>,
  userEmail?: string,
): PaymentCall<DepositResult | WithdrawResult> {
  checkResentReference(referenceId, body);
  return endpoint === 'withdraw'
    ? withdrawCall(body as WithdrawRequest, options)
    : depositCall(body as DepositRequest, options as UserRequestOptions, userEmail);
}
