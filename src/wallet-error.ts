/** The base class of every error the SDK throws, and the journal's error it may carry. */

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/**
 * Marks every error the SDK throws. `instanceof WalletError` checks it, so the
 * check holds across the ESM and CJS builds, across realms, and for errors of
 * entries that must not import this module (`merchant-wallet/login`).
 */
const walletErrorBrand = Symbol.for('merchant-wallet.error');

/** One problem found while validating a request, a response or a webhook body. */
export interface WalletIssue {
  /** Dotted path of the offending field, e.g. `amount` or `payment_providers.mobile_payment_providers.0.phone_number`; empty for the whole value. */
  readonly path: string;
  /** What is wrong with it. */
  readonly message: string;
}

/**
 * Base class of everything the SDK throws. Catch it to handle any SDK failure.
 *
 * Its `toJSON()` and `util.inspect` output carry only the error's own public
 * fields, never an API key or a user token.
 */
export class WalletError extends Error {
  /** The class name, e.g. `'WalletApiError'`; each subclass narrows it to its own. */
  override readonly name: string = 'WalletError';
  /**
   * Set on the error of a deposit or withdrawal when its outcome could not be written to the
   * payment journal (the intent stays `sending` there, so `wallet.recover()` resolves it later).
   */
  declare journalError?: WalletJournalError;

  /**
   * `error instanceof WalletError` is true for any SDK error, also one thrown by the other build
   * (ESM or CJS), another realm or the `login` entry. `this` is the class on the right of
   * `instanceof`, so subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the receiver is the point of this method.
    if (this !== WalletError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && walletErrorBrand in value;
  }

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    Object.defineProperty(this, walletErrorBrand, { value: true });
  }

  /** A plain object with the public fields, safe to log. */
  toJSON(): Record<string, unknown> {
    const { stack: _stack, cause, ...fields } = this as Error & Record<string, unknown>;
    return {
      ...fields,
      name: this.name,
      message: this.message,
      ...(cause instanceof WalletError ? { cause: cause.toJSON() } : {}),
    };
  }

  /** The stack (whose first line is the message) and the public fields; nothing else is shown. */
  [inspectSymbol](): string {
    const fields = this.toJSON();
    delete fields.name;
    delete fields.message;
    const extra = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields, null, 2)}` : '';
    return `${this.stack ?? `${this.name}: ${this.message}`}${extra}`;
  }
}

/**
 * The payment journal failed. Thrown when recording an intent fails before sending: nothing was
 * sent, and `mayBeSentLater` says whether an open intent may remain that `recover()` would send.
 * Set as `journalError` on a result or error when writing the outcome failed after sending.
 */
export class WalletJournalError extends WalletError {
  /** Always `'WalletJournalError'`. */
  override readonly name = 'WalletJournalError' as const;
  /** What the client was writing: the intent before sending, or the outcome after. */
  readonly operation: 'record' | 'update';
  /** The payment's reference id. */
  readonly referenceId: string;
  /**
   * Whether this payment may have been sent, by an earlier call, or may yet be, by `wallet.recover()`
   * from an intent left open. When `true`, retry only with the same `reference_id`, never a new one.
   * When `false` (a failed record whose intent this call then closed as never sent),
   * nothing was or will be sent: paying again under a new reference id cannot pay twice.
   */
  readonly mayBeSentLater: boolean;
  /** The identity of the merchant whose client wrote it (`WalletClient.merchant`). */
  declare merchant?: string;

  constructor(init: {
    operation: 'record' | 'update';
    referenceId: string;
    cause: unknown;
    mayBeSentLater?: boolean | undefined;
  }) {
    const mayBeSentLater = init.mayBeSentLater ?? true;
    const ref = `reference_id "${init.referenceId}"`;
    super(
      init.operation === 'update'
        ? `The payment journal could not record the outcome of ${ref}; it stays open there until recover() resolves it. Retry it only with the same reference_id`
        : mayBeSentLater
          ? `The payment journal could not record ${ref}, and an intent may remain that recover() would send; nothing was sent now. Retry it only with the same reference_id, never a new one`
          : `The payment journal could not record ${ref}; nothing was sent and nothing will be: it is safe to pay again`,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.referenceId = init.referenceId;
    this.mayBeSentLater = mayBeSentLater;
  }
}
