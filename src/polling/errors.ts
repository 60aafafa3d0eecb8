import { WalletError } from '../errors.js';

/** `waitForTransaction` reached its deadline before the transaction became final. */
export class WalletPollTimeoutError extends WalletError {
  /** Always `'WalletPollTimeoutError'`. */
  override readonly name = 'WalletPollTimeoutError' as const;
  /** The transaction that was being waited for. */
  readonly transactionId: string;
  /** The last status read, or `undefined` if no read succeeded. */
  readonly lastStatus: string | undefined;
  /** The overall deadline that passed, in milliseconds (the wait's `timeoutMs`). */
  readonly timeoutMs: number;

  constructor(init: {
    transactionId: string;
    lastStatus: string | undefined;
    timeoutMs: number;
    cause?: unknown;
  }) {
    super(
      `Transaction "${init.transactionId}" was not final after ${init.timeoutMs} ms (last status: ${init.lastStatus ?? 'none read'})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.transactionId = init.transactionId;
    this.lastStatus = init.lastStatus;
    this.timeoutMs = init.timeoutMs;
  }
}
