import { expectTypeOf, test } from 'vitest';
import type { TransactionResult } from '../../src/schemas/responses.js';
import type {
  TransactionContext,
  UnverifiedTransactionEvent,
  VerifiedField,
  WebhookHandlerOptions,
} from '../../src/webhooks/index.js';

type OnTransaction = NonNullable<WebhookHandlerOptions['onTransaction']>;

test('onTransaction gets the posted event typed as unverified, and the read-back status only when verified', () => {
  expectTypeOf<Parameters<OnTransaction>[0]>().toEqualTypeOf<UnverifiedTransactionEvent>();
  expectTypeOf<Parameters<OnTransaction>[1]>().toEqualTypeOf<TransactionContext>();
  expectTypeOf<
    Extract<TransactionContext, { verified: true }>['status']
  >().toEqualTypeOf<TransactionResult>();
  expectTypeOf<Extract<TransactionContext, { verified: false }>>().not.toHaveProperty('status');
});

test('a verified context carries no claim that the webhook disagreed: such an event never reaches the callback', () => {
  expectTypeOf<Extract<TransactionContext, { verified: true }>>().not.toHaveProperty('webhookAgreed');
  expectTypeOf<Extract<TransactionContext, { verified: true }>>().not.toHaveProperty('disagreements');
  expectTypeOf<VerifiedField>().toEqualTypeOf<
    'transaction_id' | 'transaction_status' | 'reference_id' | 'amount' | 'currency'
  >();
});
