import { WalletApiError, WalletError, WalletOutcomeUnknownError } from '../../src/index.js';
import type { SandboxTransaction } from '../../src/testing/index.js';
import type { OperationRecord } from './execute.js';

/** What the sandbox's own records say about the run. Each `*Violations` count must be 0. */
export interface SoakInvariants {
  /** Reference ids holding more than one transaction of the soak's merchant (a double payment). */
  readonly duplicateReferenceViolations: number;
  /**
   * Transactions no operation accounts for: none resolved with it and none threw
   * `WalletOutcomeUnknownError` for its reference id (a payment the caller lost sight of).
   */
  readonly unaccountedTransactionViolations: number;
  /**
   * Resolved operations whose transaction is missing or differs in reference id, amount or currency
   * from the request, or whose answer differs from the request in any of them (an answer about
   * another payment taken for this one).
   */
  readonly phantomSuccessViolations: number;
  /** Currencies whose total across all balances changed. */
  readonly moneyViolations: number;
  /** Occurrences of the API key or a user token in any log line, or of a secret its call held in any rendering of an error. */
  readonly secretViolations: number;
  /** Failures that were not `WalletError`s. */
  readonly foreignErrorViolations: number;
  /** Money per currency before and after. */
  readonly moneyBefore: Readonly<Record<string, number>>;
  readonly moneyAfter: Readonly<Record<string, number>>;
}

/** Checks the money-safety invariants of a finished run against the sandbox's transactions. */
export function checkLedger(
  records: readonly OperationRecord[],
  transactions: readonly SandboxTransaction[],
  appId: string,
): Pick<
  SoakInvariants,
  | 'duplicateReferenceViolations'
  | 'unaccountedTransactionViolations'
  | 'phantomSuccessViolations'
  | 'foreignErrorViolations'
> {
  const byReference = new Map<string, SandboxTransaction[]>();
  for (const transaction of transactions) {
    if (transaction.app_id !== appId || transaction.reference_id === undefined) continue;
    const list = byReference.get(transaction.reference_id) ?? [];
    list.push(transaction);
    byReference.set(transaction.reference_id, list);
  }
  const byId = new Map(transactions.map((transaction) => [transaction.transaction_id, transaction]));
  const accounted = new Set<string>();
  const unknownReferences = new Set<string>();
  let phantomSuccessViolations = 0;
  let foreignErrorViolations = 0;
  for (const { operation, outcome } of records) {
    if (outcome.ok) {
      const held = byId.get(outcome.transactionId);
      const matches =
        held !== undefined &&
        held.app_id === appId &&
        held.reference_id === operation.referenceId &&
        held.amount === operation.amount &&
        held.currency === operation.currency &&
        (outcome.referenceId === undefined || outcome.referenceId === operation.referenceId) &&
        outcome.amount === operation.amount &&
        outcome.currency === operation.currency;
      if (matches) accounted.add(outcome.transactionId);
      else phantomSuccessViolations++;
    } else if (outcome.error instanceof WalletOutcomeUnknownError) {
      if (outcome.error.referenceId === operation.referenceId) unknownReferences.add(operation.referenceId);
    } else if (!(outcome.error instanceof WalletError)) {
      foreignErrorViolations++;
    }
  }
  let duplicateReferenceViolations = 0;
  let unaccountedTransactionViolations = 0;
  for (const [referenceId, list] of byReference) {
    if (list.length > 1) duplicateReferenceViolations++;
    for (const transaction of list) {
      if (!accounted.has(transaction.transaction_id) && !unknownReferences.has(referenceId)) {
        unaccountedTransactionViolations++;
      }
    }
  }
  return {
    duplicateReferenceViolations,
    unaccountedTransactionViolations,
    phantomSuccessViolations,
    foreignErrorViolations,
  };
}

/** Currencies whose totals differ. */
export function moneyViolations(before: Record<string, number>, after: Record<string, number>): number {
  const currencies = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...currencies].filter((currency) => before[currency] !== after[currency]).length;
}

/** A label per failure kind: the API code for API errors, else the class name. */
export function failureLabel(error: unknown): string {
  if (error instanceof WalletApiError) return `WalletApiError ${error.code}`;
  if (error instanceof Error) return error.name;
  return typeof error;
}
