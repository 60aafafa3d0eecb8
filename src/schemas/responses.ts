import * as z from 'zod/mini';
import { TransactionStatus } from './fields.js';

/** Result of a deposit (C2B). Fields the SDK does not know are kept. */
export const DepositResult = z.looseObject({
  /** The service's id of the transaction: the key for `getTransaction` and webhooks. */
  transaction_id: z.string(),
  /** Your id from the request. */
  reference_id: z.string(),
  /** `completed` when the wallet covered it; `pending` while a provider deposit runs. */
  transaction_status: TransactionStatus,
  /** The amount, as a number on this endpoint. */
  amount: z.number(),
  /** The currency code. */
  currency: z.string(),
});
/** Result of a deposit (C2B). */
export type DepositResult = z.infer<typeof DepositResult>;

/** Result of a withdrawal (B2C). Fields the SDK does not know are kept. */
export const WithdrawResult = z.looseObject({
  /** The service's id of the transaction: the key for `getTransaction`. */
  transaction_id: z.string(),
  /** Present when the request carried one (the SDK always sends one). */
  reference_id: z.optional(z.string()),
  /** Normally `completed`: withdrawals complete within the request. */
  transaction_status: TransactionStatus,
  /** The amount, as a number on this endpoint. */
  amount: z.number(),
  /** The currency code. */
  currency: z.string(),
  /** Completion time as a `YYYYMMDDHHMMSS` integer; see `parseDateCompleted`. */
  date_completed: z.optional(z.int()),
});
/** Result of a withdrawal (B2C). */
export type WithdrawResult = z.infer<typeof WithdrawResult>;

/** Result of a status lookup. `amount` is a string on this endpoint, as on the wire. */
export const TransactionResult = z.looseObject({
  /** The id that was looked up. */
  transaction_id: z.string(),
  /** Your id, when the transaction was created with one. */
  reference_id: z.optional(z.string()),
  /** `pending` until the transaction is final; `completed` and `failed` are final. */
  transaction_status: TransactionStatus,
  /** The amount, as a decimal string on this endpoint (e.g. `"250.00"`). */
  amount: z.string(),
  /** The currency code. */
  currency: z.string(),
  /** The reason when `transaction_status` is `failed`; `null` otherwise. */
  failure_reason: z.optional(z.nullable(z.string())),
});
/** Result of a status lookup. */
export type TransactionResult = z.infer<typeof TransactionResult>;

/** One mobile payment provider a user has linked. */
export const MobilePaymentProvider = z.looseObject({
  /** The value to pass as `payment_provider`. */
  provider_name: z.string(),
  /** The user's phone number at this provider. */
  phone_number: z.string(),
});
/** One mobile payment provider a user has linked. */
export type MobilePaymentProvider = z.infer<typeof MobilePaymentProvider>;

/** The payment providers a user has and their defaults. */
export const ProviderList = z.looseObject({
  /** The user's default provider for deposits. */
  default_deposit_provider: z.string(),
  /** The user's default provider for withdrawals. */
  default_withdraw_provider: z.string(),
  /** The providers available to this user; only these can be named as `payment_provider`. */
  payment_providers: z.looseObject({
    /** Mobile-money providers, each with the user's phone number there. */
    mobile_payment_providers: z.array(MobilePaymentProvider),
  }),
});
/** The payment providers a user has and their defaults. */
export type ProviderList = z.infer<typeof ProviderList>;
