import * as z from 'zod/mini';
import { TransactionStatus } from './fields.js';

/** Result of a deposit (C2B). Fields the SDK does not know are kept. */
export const DepositResult = z.looseObject({
  transaction_id: z.string(),
  reference_id: z.string(),
  transaction_status: TransactionStatus,
  amount: z.number(),
  currency: z.string(),
});
/** Result of a deposit (C2B). */
export type DepositResult = z.infer<typeof DepositResult>;

/** Result of a withdrawal (B2C). Fields the SDK does not know are kept. */
export const WithdrawResult = z.looseObject({
  transaction_id: z.string(),
  /** Present when the request carried one (the SDK always sends one). */
  reference_id: z.optional(z.string()),
  transaction_status: TransactionStatus,
  amount: z.number(),
  currency: z.string(),
  /** Completion time as a `YYYYMMDDHHMMSS` integer; see `parseDateCompleted`. */
  date_completed: z.optional(z.int()),
});
/** Result of a withdrawal (B2C). */
export type WithdrawResult = z.infer<typeof WithdrawResult>;

/** Result of a status lookup. `amount` is a string on this endpoint, as on the wire. */
export const TransactionResult = z.looseObject({
  transaction_id: z.string(),
  reference_id: z.optional(z.string()),
  transaction_status: TransactionStatus,
  amount: z.string(),
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
  phone_number: z.string(),
});
/** One mobile payment provider a user has linked. */
export type MobilePaymentProvider = z.infer<typeof MobilePaymentProvider>;

/** The payment providers a user has and their defaults. */
export const ProviderList = z.looseObject({
  default_deposit_provider: z.string(),
  default_withdraw_provider: z.string(),
  payment_providers: z.looseObject({
    mobile_payment_providers: z.array(MobilePaymentProvider),
  }),
});
/** The payment providers a user has and their defaults. */
export type ProviderList = z.infer<typeof ProviderList>;
