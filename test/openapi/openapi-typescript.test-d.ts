import { expectTypeOf, test } from 'vitest';
import type {
  DepositErrorCode,
  DepositRequest,
  DepositResult,
  ProviderList,
  ProvidersErrorCode,
  StatusErrorCode,
  TransactionResult,
  WithdrawErrorCode,
  WithdrawRequest,
  WithdrawResult,
} from '../../src/index.js';
import type { TransactionWebhook, UserAuthorizedWebhook } from '../../src/webhooks/index.js';
import type { components, operations, webhooks } from './generated/wallet-api.js';

// test/openapi/generated/wallet-api.ts is what openapi-typescript, a generator this project did not
// write, makes of openapi/openapi.json (test/openapi/openapi-typescript.test.ts keeps it current).
// Its types must be the SDK's own, so a merchant generating a client gets the same wire format.

/**
 * The same type with optional fields written as openapi-typescript writes them: zod types an
 * optional field `?: T | undefined`, openapi-typescript `?: T`, and under
 * `exactOptionalPropertyTypes` those differ though the JSON they describe is the same. Objects,
 * arrays and intersections are flattened so the comparison is of shape alone.
 */
type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Wire<Exclude<T[K], undefined>> }
    : T;

type Schemas = components['schemas'];
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Answer<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type ErrorCode<O> = O extends { responses: { '4XX': { content: { 'application/json': infer B } } } }
  ? B extends { code: infer C }
    ? C
    : never
  : never;

test('request bodies are the SDK request types', () => {
  expectTypeOf<Wire<Schemas['DepositRequest']>>().toEqualTypeOf<Wire<DepositRequest>>();
  expectTypeOf<Wire<Schemas['WithdrawRequest']>>().toEqualTypeOf<Wire<WithdrawRequest>>();
  expectTypeOf<Wire<JsonBody<operations['deposit']>>>().toEqualTypeOf<Wire<DepositRequest>>();
  expectTypeOf<Wire<JsonBody<operations['withdraw']>>>().toEqualTypeOf<Wire<WithdrawRequest>>();
});

test('answers are the SDK response types', () => {
  expectTypeOf<Wire<Answer<operations['deposit']>>>().toEqualTypeOf<Wire<DepositResult>>();
  expectTypeOf<Wire<Answer<operations['withdraw']>>>().toEqualTypeOf<Wire<WithdrawResult>>();
  expectTypeOf<Wire<Answer<operations['getTransaction']>>>().toEqualTypeOf<Wire<TransactionResult>>();
  expectTypeOf<Wire<Answer<operations['listProviders']>>>().toEqualTypeOf<Wire<ProviderList>>();
});

test('webhook bodies are the SDK webhook types', () => {
  expectTypeOf<Wire<JsonBody<webhooks['user_authorized']['post']>>>().toEqualTypeOf<
    Wire<UserAuthorizedWebhook>
  >();
  expectTypeOf<Wire<JsonBody<webhooks['transaction']['post']>>>().toEqualTypeOf<Wire<TransactionWebhook>>();
});

test("each endpoint's error codes are the SDK's union for it", () => {
  expectTypeOf<ErrorCode<operations['deposit']>>().toEqualTypeOf<DepositErrorCode>();
  expectTypeOf<ErrorCode<operations['withdraw']>>().toEqualTypeOf<WithdrawErrorCode>();
  expectTypeOf<ErrorCode<operations['getTransaction']>>().toEqualTypeOf<StatusErrorCode>();
  expectTypeOf<ErrorCode<operations['listProviders']>>().toEqualTypeOf<ProvidersErrorCode>();
});
