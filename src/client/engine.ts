import type { UserCallContext, VaultLink } from '../auth/vault-link.js';
import { tracingChannel } from '../diagnostics/channel.js';
import type { WalletPaymentTrace } from '../diagnostics/payment-trace.js';
import type { WalletEndpoint } from '../error-codes.js';
import type { WalletOutcomeUnknownError } from '../errors.js';
import type { PaymentIntentEndpoint, SettledBy } from '../journal/types.js';
import type { DepositResult, TransactionResult, WithdrawResult } from '../schemas/responses.js';
import type { SweepContext } from '../settlement/sweep.js';
import type { ResponseSlot } from '../transport/response.js';
import { type CallSpec, send } from '../transport/send.js';
import { traced } from '../transport/tracing.js';
import { closedClientError } from './connections.js';
import { flatUuid } from './flat-uuid.js';
import type { Journaled, JournaledPayment, JournalHook } from './journal-hook.js';
import { lazyModule } from './lazy-module.js';
import { keyFingerprint, merchantIdentity } from './merchant-identity.js';
import { stampMerchant } from './merchant-stamp.js';
import { type PaymentCall, resendCall } from './payment-calls.js';
import { providersCall } from './read-calls.js';
import type { IntentResend, RecoverOptions, RecoveryReport } from './recover.js';
import { type CheckedRequestOptions, NO_OPTIONS, type UserRequestOptions } from './request-options.js';
import type { ClientSettings } from './resolve-options.js';
import type { OutcomeResolution } from './resolve-outcome.js';
import { forUser } from './user-calls.js';
import { WritesBehind } from './write-behind.js';

/**
 * `recover()`, `resolveOutcome` and the sweeper's re-sends, loaded on first use: they run after a
 * crash or a lost answer, so a client that only pays never loads them. Kept once loaded, as the
 * sweeper asks for it once per intent it re-sends.
 */
const recovery = lazyModule(() => import('./recovery.js'));

/**
 * The journaled send path (the intent's record, its sending lease, the outcome, settlement), loaded
 * with the first journaled payment or status read: a client without a journal, as in a browser or
 * an edge worker, never loads it. Kept once loaded, so a payment waits for it only once.
 */
const journaled = lazyModule(() => import('./journal-hook.js'));

/** Traces each deposit and withdrawal call (`WalletPaymentTrace`). */
const paymentChannel = tracingChannel('merchant-wallet:payment');

/**
 * What a `WalletClient` runs on: its settings, journal and vault, and the one way each call is sent
 * (open check, per-call options, transport) and each payment is sent between its journal writes.
 * The client is the public façade over it.
 */
export class ClientEngine {
  readonly config: Omit<ClientSettings, 'journal' | 'tokens' | 'settlement'>;
  readonly journal: JournalHook | undefined;
  readonly tokens: VaultLink | undefined;
  /** This client's merchant identity (see `WalletClient.merchant`). */
  readonly merchant: string;
  /** The fingerprint of this client's API key alone, recorded with each intent. */
  readonly keyFingerprint: string;
  #closed = false;

  constructor(settings: ClientSettings) {
    const { journal, tokens, settlement, ...config } = settings;
    this.config = config;
    this.tokens = tokens;
    this.journal = journal && { journal, logger: config.logger, settlement, behind: new WritesBehind() };
    this.merchant = merchantIdentity(config.apiKey, config.baseUrl.href);
    this.keyFingerprint = keyFingerprint(config.apiKey);
  }

  /** Checks a user token with one providers call of this client: how a vault's candidate is checked. */
  readonly checkToken = (userToken: string): Promise<unknown> =>
    this.send(NO_OPTIONS, providersCall(userToken), {});

  /** What a `{ user }` call to `endpoint` gives the vault: the endpoint, and this client's token check. */
  userCall(endpoint: WalletEndpoint): UserCallContext {
    return { endpoint, check: this.checkToken };
  }

  /** Refuses calls from now on. */
  stop(): void {
    this.#closed = true;
  }

  /** Resolves once every outcome written behind a call's answer has landed or failed. */
  writesLanded(): Promise<void> {
    return this.journal?.behind.drained() ?? Promise.resolve();
  }

  checkOpen(): void {
    if (this.#closed || this.config.connections.closed) throw closedClientError();
  }

  send<T>(options: CheckedRequestOptions, call: CallSpec<T>, slot: ResponseSlot): Promise<T> {
    this.checkOpen();
    // Each method passes a fresh literal, so adding to it is safe, and far cheaper than spreading it.
    const spec: CallSpec<T> = options === NO_OPTIONS ? call : Object.assign(call, options);
    return send(this.config, spec, slot);
  }

  /**
   * A deposit or withdrawal built by `build` (after the open check), sent between its journal writes;
   * a re-send of an unknown outcome names the path it settles the payment by (`via`).
   */
  pay<T extends DepositResult | WithdrawResult>(
    build: () => PaymentCall<T>,
    slot: ResponseSlot,
    via?: SettledBy,
  ) {
    this.checkOpen();
    const call = build();
    const { signal, timeoutMs = this.config.timeoutMs } = call.options;
    const { referenceId, endpoint } = call.intent;
    const resend = via !== undefined;
    const trace: WalletPaymentTrace = { endpoint, referenceId, resend };
    const send = () => this.send(call.options, call.spec, slot);
    const hook = this.journal;
    // A client without a journal builds no intent: no id for its recording call, no copy of the body.
    if (hook === undefined) return traced(paymentChannel, trace, () => this.#sendUnjournaled<T>(send));
    const payment: JournaledPayment<T> = {
      // The keys added first, then the call's own: V8 copies a spread and then adds keys to it on a
      // slow path, several µs a payment. The call's intent never names these three.
      intent: {
        merchant: this.merchant,
        keyFingerprint: this.keyFingerprint,
        recordedBy: flatUuid(),
        ...call.intent,
      },
      bounds: { endpoint: call.spec.endpoint, signal, timeoutMs },
      send,
      resend,
      via,
    };
    return traced(paymentChannel, trace, (): Promise<Journaled<T>> => {
      // Once the journal's chunk is loaded, a payment goes to it directly, not a promise later.
      const loaded = journaled.loaded();
      const sent =
        loaded === undefined
          ? journaled().then((module) => module.sendJournaled(hook, payment))
          : loaded.sendJournaled(hook, payment);
      // close() waits for it: its answer may come after close() began, and its outcome after that.
      hook.behind.track(sent);
      return sent;
    });
  }

  /** A payment of a client without a journal: sent as it is, its error marked with the merchant. */
  async #sendUnjournaled<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      stampMerchant(error, this.merchant);
      throw error;
    }
  }

  /** Records a status read in the journal, as coming from `settledBy`; without a journal, nothing. */
  noteStatus(status: TransactionResult, settledBy: SettledBy): Promise<void> {
    const hook = this.journal;
    if (hook === undefined) return Promise.resolve();
    return journaled().then((loaded) => loaded.noteStatus(hook, status, settledBy));
  }

  /** Sends an unknown payment's body again under its own reference id: how its outcome is settled. */
  resend(
    endpoint: PaymentIntentEndpoint,
    referenceId: string | undefined,
    body: unknown,
    options: Partial<UserRequestOptions>,
    via: SettledBy = 'resolve_outcome',
  ) {
    return forUser(
      this.tokens,
      options,
      (user, email) => this.pay(() => resendCall(endpoint, referenceId, body, user, email), {}, via),
      this.userCall(endpoint),
    );
  }

  /** Settles an unknown outcome by re-sending its body (see `WalletClient.resolveOutcome`). */
  async resolveOutcome(
    error: WalletOutcomeUnknownError,
    options: Partial<UserRequestOptions>,
  ): Promise<OutcomeResolution> {
    const { resolveUnknown, unknownPayment } = await recovery();
    const payment = unknownPayment(error, this.merchant);
    return resolveUnknown(payment, (endpoint, body, referenceId) =>
      this.resend(endpoint, referenceId, body, options),
    );
  }

  /** Sends an intent's body again, with its user's token, settling it as `via` says, until `signal` aborts. */
  #resendBy =
    (via: SettledBy, signal?: AbortSignal): IntentResend =>
    (_intent, userToken) =>
    (endpoint, body, referenceId) =>
      this.resend(
        endpoint,
        referenceId,
        body,
        { ...(userToken === undefined ? {} : { userToken }), ...(signal === undefined ? {} : { signal }) },
        via,
      );

  /** Sends an intent's body again, with its user's token: how `recover()` resolves it. */
  readonly resendIntent: IntentResend = this.#resendBy('recover');

  /** Resolves the journal's open intents of this merchant (see `WalletClient.recover`). */
  recover(options: RecoverOptions): Promise<RecoveryReport> {
    return recovery().then((loaded) =>
      loaded.recoverIntents(this.journal?.journal, this.merchant, options, this.resendIntent, this.tokens),
    );
  }

  /** What the sweeper needs, reading statuses with `read` (the client's `getTransaction`). */
  sweepContext(read: (transactionId: string) => Promise<TransactionResult>): SweepContext {
    return {
      journal: this.journal?.journal,
      merchant: this.merchant,
      settlement: this.journal?.settlement,
      resend: (intent, { signal, ...options }) =>
        recovery().then((loaded) =>
          loaded.intentRecoverer(
            this.merchant,
            options,
            this.#resendBy('sweeper', signal),
            this.tokens,
          )(intent),
        ),
      read,
    };
  }
}
