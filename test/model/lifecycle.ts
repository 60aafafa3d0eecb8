/**
 * A model-based test of the payment lifecycle: random sequences of payments under faults (the
 * service's and the journal's), crashes, restarts with `recover()`, the sweeper, `resolveOutcome`
 * and webhook deliveries, on several instances sharing one journal, some commands running at once
 * (payments on several instances with `recover()` and a sweep beside them), and crashes between a
 * success's answer and the write of its outcome behind it (`outcome-lost`). Time is virtual
 * (virtual-clock.ts) and the sandbox is called in process, so a sequence takes the time of its code,
 * not of its time-outs and leases. The merchant in the model reacts to every error exactly as
 * docs/reliability.md says. After every command no order is charged twice; at the end, once faults
 * are gone and recovery has run, the journal agrees with the sandbox's ledger and with what each
 * caller was told (paid: accepted and applied; refused: never applied), and every genuine webhook was
 * processed once.
 */
import fc from 'fast-check';
import {
  ACCEPTED_STATES,
  createMemoryJournal,
  type PaymentJournal,
  WalletClient,
  WalletJournalError,
  WalletOutcomeUnknownError,
} from '../../src/index.js';
import type { FaultSpec, Sandbox, SandboxRequestHandler } from '../../src/testing/index.js';
import {
  createMemoryDedupeStore,
  createWebhookHandler,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { type JournalFault, journalWithFaults } from './faulty-journal.js';
import { sandboxFetch } from './sandbox-fetch.js';
import type { VirtualClock } from './virtual-clock.js';

const API_KEY = 'sk_sandbox_demo_shop';
/** Where the instances send: a loopback URL the in-process fetch answers for the sandbox. */
export const MODEL_BASE_URL = 'http://127.0.0.1:9/';

/** A signal aborted after `ms` of (virtual) time. */
function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('The operation timed out', 'TimeoutError')), ms);
  return controller.signal;
}
const USER_TOKEN = 'tok_sandbox_alice';

/** What the sandbox does to the next request of a payment. */
const SERVICE_FAULTS: readonly (FaultSpec | undefined)[] = [
  undefined,
  { kind: 'respond', status: 502 },
  { kind: 'respond', status: 503 },
  { kind: 'respond', status: 500 },
  { kind: 'respond', status: 303, headers: { location: 'https://elsewhere.example/' } },
  { kind: 'respond', status: 429 },
  { kind: 'error', code: 'invalid_api_key' },
  { kind: 'error', code: 'application_not_authorized' },
  { kind: 'error', code: 'internal_server_error' },
  { kind: 'error', code: 'insufficient_balance' },
  { kind: 'drop-before' },
  { kind: 'drop-after' },
  { kind: 'reset-mid-body' },
  { kind: 'answer-after', status: 524 },
  // Longer than the sending lease: the call renews it, and nobody re-sends it meanwhile.
  { kind: 'latency', ms: 45_000 },
];

/** Whether the fault at `index` answers with a documented business refusal. */
function isBusinessFault(index: number): boolean {
  const fault = SERVICE_FAULTS[index];
  return fault?.kind === 'error' && fault.code === 'insufficient_balance';
}

/** One payment of a `pay` or `together` command. */
export interface Payment {
  readonly order: number;
  /** The instance that pays. */
  readonly instance: number;
  readonly endpoint: 'deposit' | 'withdraw';
  readonly fault: number;
  readonly abortAfterMs: number | undefined;
}

/** One step of a sequence. */
export type Command =
  | ({ readonly kind: 'pay'; readonly journalFault: JournalFault | undefined } & Payment)
  | {
      /** Payments on several instances at once, with `recover()` and a sweep on others beside them. */
      readonly kind: 'together';
      readonly payments: readonly Payment[];
      readonly journalFault: JournalFault | undefined;
      readonly recoverOn: number | undefined;
      readonly sweepOn: number | undefined;
      /** How long after the payments start the recovery and the sweep start (virtual ms). */
      readonly afterMs: number;
    }
  | { readonly kind: 'crash'; readonly instance: number }
  | { readonly kind: 'recover'; readonly instance: number }
  | { readonly kind: 'sweep'; readonly instance: number }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'resolve'; readonly order: number }
  | { readonly kind: 'webhook'; readonly forged: boolean; readonly failFirst: boolean };

const ORDERS = 4;
/** Instances sharing the journal, the service and the dedupe store. */
const INSTANCES = 3;

const journalFaultArbitrary = fc.option(
  fc.constantFrom<JournalFault>(
    'record-fails',
    'record-lost-reply',
    'record-hangs',
    'update-fails',
    'update-lost-reply',
    'update-hangs',
    'renew-fails',
    'outcome-lost',
  ),
  { freq: 4, nil: undefined },
);

const paymentArbitrary: fc.Arbitrary<Payment> = fc.record({
  order: fc.nat(ORDERS - 1),
  instance: fc.nat(INSTANCES - 1),
  endpoint: fc.constantFrom('deposit' as const, 'withdraw' as const),
  fault: fc.nat(SERVICE_FAULTS.length - 1),
  abortAfterMs: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 8, nil: undefined }),
});

const instanceArbitrary = fc.nat(INSTANCES - 1);

/** The commands, with payments the most frequent. */
export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({
        kind: fc.constant('pay' as const),
        payment: paymentArbitrary,
        journalFault: journalFaultArbitrary,
      })
      .map(({ kind, payment, journalFault }) => ({ kind, journalFault, ...payment })),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('together' as const),
      payments: fc.array(paymentArbitrary, { minLength: 1, maxLength: 3 }),
      journalFault: journalFaultArbitrary,
      recoverOn: fc.option(instanceArbitrary, { nil: undefined }),
      sweepOn: fc.option(instanceArbitrary, { nil: undefined }),
      afterMs: fc.constantFrom(0, 1, 200, 20_000, 40_000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), instance: instanceArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recover' as const), instance: instanceArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const), instance: instanceArbitrary }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(1_000, 31_000, 61_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), order: fc.nat(ORDERS - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('webhook' as const),
      forged: fc.boolean(),
      failFirst: fc.boolean(),
    }),
  },
);

/** The merchant's view of one order: the reference it pays under now, and what it was told. */
interface Order {
  reference: string;
  /** Every reference the order was ever sent under. */
  readonly references: string[];
  told: 'nothing' | 'paid' | 'refused' | 'maybe';
  unknown: WalletOutcomeUnknownError | undefined;
  endpoint: 'deposit' | 'withdraw';
}

/** One sequence's world: the sandbox (reset), the durable journal, and each instance's objects. */
export class World {
  /** What outlives a crash: the journal's store and the shared dedupe store. */
  readonly journal: PaymentJournal = createMemoryJournal();
  readonly #dedupe = createMemoryDedupeStore();
  readonly #faulty: ReturnType<typeof journalWithFaults>;
  readonly #fetch: typeof globalThis.fetch;
  readonly orders: Order[];
  /** One client per instance, all of one merchant, on the one journal. */
  readonly wallets: WalletClient[];
  handler: WebhookHandler;
  /** Genuine webhook events processed by the callback, by transaction id and status. */
  readonly processed = new Map<string, number>();
  #failNext = false;
  #serial = 0;

  constructor(
    readonly sandbox: Sandbox,
    handle: SandboxRequestHandler,
    readonly sequence: number,
    readonly clock: VirtualClock,
  ) {
    this.#faulty = journalWithFaults(this.journal);
    this.#fetch = sandboxFetch(handle);
    this.orders = Array.from({ length: ORDERS }, (_, n) => {
      const reference = this.#reference(n);
      return { reference, references: [], told: 'nothing', unknown: undefined, endpoint: 'withdraw' };
    });
    this.wallets = Array.from({ length: INSTANCES }, () => this.#client());
    this.handler = this.#handler();
  }

  #reference(order: number): string {
    this.#serial += 1;
    return `m${this.sequence}-o${order}-r${this.#serial}`;
  }

  #client(): WalletClient {
    return new WalletClient({
      apiKey: API_KEY,
      baseUrl: MODEL_BASE_URL,
      fetch: this.#fetch,
      journal: this.#faulty.journal,
      maxRetries: 1,
      timeoutMs: 400,
    });
  }

  #handler(): WebhookHandler {
    return createWebhookHandler({
      verifyWith: this.wallets[0] as WalletClient,
      dedupe: this.#dedupe,
      leaseMs: 50,
      onTransaction: async (_event, context) => {
        if (this.#failNext) {
          this.#failNext = false;
          throw new Error('the handler process died in the callback');
        }
        if (!context.verified) throw new Error('an unverified event reached the callback');
        const key = `${context.status.transaction_id}:${context.status.transaction_status}`;
        this.processed.set(key, (this.processed.get(key) ?? 0) + 1);
      },
    });
  }

  #wallet(instance: number): WalletClient {
    return this.wallets[instance] as WalletClient;
  }

  /** Runs one command to its end, on virtual time. */
  run(command: Command): Promise<void> {
    return this.clock.run(this.#run(command));
  }

  async #run(command: Command): Promise<void> {
    switch (command.kind) {
      case 'pay':
        this.#faulty.arm(command.journalFault);
        try {
          return await this.#pay(command);
        } finally {
          this.#faulty.arm(undefined);
        }
      case 'together':
        return this.#together(command);
      case 'crash': {
        // Everything in the process is gone; the journal's store and the service remain.
        await this.#wallet(command.instance).close();
        this.wallets[command.instance] = this.#client();
        if (command.instance === 0) this.handler = this.#handler();
        for (const order of this.orders) order.unknown = undefined;
        return;
      }
      case 'recover':
        await this.#wallet(command.instance).recover({ userTokenFor: () => USER_TOKEN });
        return;
      case 'sweep':
        await this.#sweep(command.instance);
        return;
      case 'wait':
        await new Promise((resolve) => setTimeout(resolve, command.ms));
        return;
      case 'resolve':
        return this.#resolve(this.orders[command.order] as Order);
      case 'webhook':
        return this.#webhook(command.forged, command.failFirst);
    }
  }

  #sweep(instance: number) {
    return this.#wallet(instance).sweepOnce({ userTokenFor: () => USER_TOKEN });
  }

  async #together(command: Extract<Command, { kind: 'together' }>): Promise<void> {
    // One payment per order: a merchant never pays one order twice at once.
    // A business refusal answers only a reference's first send; a fault injected for one payment may
    // be taken by another's re-send here, so none is injected.
    const payments = [...new Map(command.payments.map((payment) => [payment.order, payment])).values()].map(
      (payment) => (isBusinessFault(payment.fault) ? { ...payment, fault: 0 } : payment),
    );
    this.#faulty.arm(command.journalFault);
    try {
      const beside = async () => {
        await new Promise((resolve) => setTimeout(resolve, command.afterMs));
        await Promise.all([
          command.recoverOn === undefined
            ? undefined
            : this.#wallet(command.recoverOn).recover({ userTokenFor: () => USER_TOKEN }),
          command.sweepOn === undefined ? undefined : this.#sweep(command.sweepOn),
        ]);
      };
      await Promise.all([...payments.map((payment) => this.#pay(payment)), beside()]);
    } finally {
      this.#faulty.arm(undefined);
    }
  }

  async #pay(command: Payment): Promise<void> {
    const order = this.orders[command.order] as Order;
    if (order.told === 'paid') return;
    // A new reference only after "refused" (or nothing sent); otherwise the same one, as the docs say.
    if (order.told === 'refused') order.reference = this.#reference(command.order);
    if (order.told !== 'maybe') order.endpoint = command.endpoint;
    order.references.push(order.reference);
    // The spec answers a reused reference_id with reference_already_used: a business refusal such as
    // insufficient_balance is only ever the answer to a reference's first send.
    const fault =
      order.told === 'maybe' && isBusinessFault(command.fault) ? undefined : SERVICE_FAULTS[command.fault];
    if (fault) this.sandbox.faults.inject({ ...fault, route: order.endpoint });
    const signal = command.abortAfterMs === undefined ? undefined : abortAfter(command.abortAfterMs);
    const wallet = this.#wallet(command.instance);
    try {
      const body = { reference_id: order.reference, amount: 1, currency: 'KES' };
      if (order.endpoint === 'deposit') await wallet.deposit(body, { userToken: USER_TOKEN, signal });
      else await wallet.withdraw({ ...body, email: 'bob@example.com' }, { signal });
      order.told = 'paid';
    } catch (error) {
      this.#told(order, error);
    } finally {
      // A fault no request took (another instance's payment was faster) goes with its command.
      this.sandbox.faults.clear();
    }
  }

  #told(order: Order, error: unknown): void {
    if (error instanceof WalletOutcomeUnknownError) {
      order.told = 'maybe';
      order.unknown = error;
    } else if (error instanceof WalletJournalError) {
      order.told = error.mayBeSentLater ? 'maybe' : 'refused';
    } else {
      // A plain error: not applied.
      order.told = 'refused';
    }
  }

  async #resolve(order: Order): Promise<void> {
    if (order.unknown === undefined) return;
    try {
      await this.#wallet(0).resolveOutcome(order.unknown, { userToken: USER_TOKEN });
      order.told = 'paid';
      order.unknown = undefined;
    } catch (error) {
      this.#told(order, error);
    }
  }

  async #webhook(forged: boolean, failFirst: boolean): Promise<void> {
    const transaction = this.sandbox.transactions().at(-1);
    if (transaction === undefined) return;
    const actual = transaction.transaction_status;
    const status = forged ? (actual === 'failed' ? 'completed' : 'failed') : actual;
    const body = JSON.stringify({
      event: 'transaction',
      transaction_id: transaction.transaction_id,
      transaction_status: status,
    });
    const deliver = () => this.handler(new Request('http://shop.test/webhook', { method: 'POST', body }));
    this.#failNext = failFirst && !forged;
    // The service delivers again until it gets a 2xx, and sends a duplicate now and then.
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await deliver();
      if (response.ok || forged) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!forged) await deliver();
  }

  /** Broken rules after a command: an order charged twice. */
  chargedTwice(): string[] {
    const ledger = this.sandbox.transactions();
    return this.orders
      .filter((order) => ledger.filter((one) => order.references.includes(one.reference_id ?? '')).length > 1)
      .map((order) => `order of ${order.references.join(', ')} was charged more than once`);
  }

  /** Broken rules at the end, after recovery with no faults. */
  async settledDisagreements(): Promise<string[]> {
    return this.clock.run(this.#settledDisagreements());
  }

  async #settledDisagreements(): Promise<string[]> {
    // Faults are over: a write that hung lands before the last recovery, as it would in time.
    await this.#faulty.landed();
    for (const wallet of this.wallets) await wallet.close();
    this.wallets.splice(0, INSTANCES, ...Array.from({ length: INSTANCES }, () => this.#client()));
    // The crashed calls' sending leases run out; then one instance recovers what they left.
    await new Promise((resolve) => setTimeout(resolve, 31_000));
    await this.#wallet(0).recover({ userTokenFor: () => USER_TOKEN });
    const problems = this.chargedTwice();
    const ledger = new Set(this.sandbox.transactions().map((one) => one.reference_id));
    // What the caller was told, the journal and the ledger agree, whatever write-behind was lost.
    for (const order of this.orders) {
      const intent = await this.journal.get(order.reference);
      if (
        order.told === 'paid' &&
        !(ACCEPTED_STATES.has(intent?.state ?? 'sending') && ledger.has(order.reference))
      )
        problems.push(`${order.reference} was told paid, and is ${intent?.state} in the journal`);
      if (order.told === 'refused' && ledger.has(order.reference))
        problems.push(`${order.reference} was told refused, and is in the ledger`);
    }
    for (const order of this.orders) {
      for (const reference of new Set(order.references)) {
        const intent = await this.journal.get(reference);
        if (intent === undefined) {
          if (ledger.has(reference)) problems.push(`${reference} was applied with no intent`);
          continue;
        }
        if (intent.state === 'sending' || intent.state === 'unknown')
          problems.push(`${reference} is still ${intent.state} after recovery`);
        if (ACCEPTED_STATES.has(intent.state) !== ledger.has(reference))
          problems.push(
            `${reference} is ${intent.state} in the journal, ${ledger.has(reference) ? '' : 'not '}in the ledger`,
          );
      }
    }
    for (const [key, times] of this.processed) {
      if (times !== 1) problems.push(`the event ${key} was processed ${times} times`);
    }
    for (const wallet of this.wallets) await wallet.close();
    return problems;
  }
}
