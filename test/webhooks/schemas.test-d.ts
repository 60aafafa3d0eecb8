import { expectTypeOf, test } from 'vitest';
import type { WalletClient } from '../../src/client/client.js';
import type { TransactionStatus } from '../../src/schemas/fields.js';
import type {
  TransactionEvent,
  TransactionReader,
  UserAuthorizedEvent,
  WebhookEvent,
} from '../../src/webhooks/index.js';

test('the webhook status list is the same as the SDK-wide TransactionStatus', () => {
  expectTypeOf<TransactionEvent['transaction_status']>().toEqualTypeOf<TransactionStatus>();
});

test('events are discriminated by type and keep documented field types', () => {
  expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<'user_authorized' | 'transaction'>();
  expectTypeOf<UserAuthorizedEvent['token']>().toEqualTypeOf<string>();
  expectTypeOf<TransactionEvent['amount']>().toEqualTypeOf<number | string | undefined>();
  expectTypeOf<TransactionEvent['failure_reason']>().toEqualTypeOf<string | null | undefined>();
  expectTypeOf<TransactionEvent['event']>().toEqualTypeOf<'transaction' | undefined>();
});

test('a WalletClient can be passed as verifyWith', () => {
  expectTypeOf<WalletClient>().toExtend<TransactionReader>();
});
