/**
 * A model-based test of the payment lifecycle: random sequences of payments under faults (the
 * service's and the journal's), crashes, restarts with `recover()`, `resolveOutcome` and webhook
 * deliveries, against the sandbox over real HTTP. The merchant in the model reacts to every error
 * exactly as docs/reliability.md says. After every command no order is charged twice; at the end,
 * once faults are gone and recovery has run, the journal agrees with the sandbox's ledger and
 * every genuine webhook was processed once.
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
import type { FaultSpec, Sandbox } from '../../src/testing/index.js';
import {
  createMemoryDedupeStore,
  createWebhookHandler,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { type JournalFault, journalWithFaults } from './faulty-journal.js';

const API_KEY = 'sk_sandbox_demo_shop';
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
];

/** Whether the fault at `index` answers with a documented business refusal. */
function isBusinessFault(index: number): boolean {
  const fault = SERVICE_FAULTS[index];
  return fault?.kind === 'error' && fault.code === 'insufficient_balance';
}

/** One step of a sequence. */
export type Command =
  | {
      readonly kind: 'pay';
      readonly order: number;
      readonly endpoint: 'deposit' | 'withdraw';
      readonly fault: number;
      readonly journalFault: JournalFault | undefined;
      readonly abortAfterMs: number | undefined;
    }
  | { readonly kind: 'crash' }
  | { readonly kind: 'recover' }
  | { readonly kind: 'resolve'; readonly order: number }
  | { readonly kind: 'webhook'; readonly forged: boolean; readonly failFirst: boolean };

const ORDERS = 4;

/** The commands, with payments the most frequent. */
export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      order: fc.nat(ORDERS - 1),
      endpoint: fc.constantFrom('deposit' as const, 'withdraw' as const),
      fault: fc.nat(SERVICE_FAULTS.length - 1),
      journalFault: fc.option(
        fc.constantFrom<JournalFault>(
          'record-fails',
          'record-lost-reply',
          'record-hangs',
          'update-fails',
          'update-lost-reply',
          'update-hangs',
        ),
        { freq: 4, nil: undefined },
      ),
      abortAfterMs: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 8, nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'crash' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'recover' as const }) },
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

/** One sequence's world: the sandbox (reset), the durable journal, and the process's objects. */
export class World {
  /** What outlives a crash: the journal's store and the shared dedupe store. */
  readonly journal: PaymentJournal = createMemoryJournal();
  readonly #dedupe = createMemoryDedupeStore();
  readonly #faulty: ReturnType<typeof journalWithFaults>;
  readonly orders: Order[];
  wallet: WalletClient;
  handler: WebhookHandler;
  /** Genuine webhook events processed by the callback, by transaction id and status. */
  readonly processed = new Map<string, number>();
  #failNext = false;
  #serial = 0;

  constructor(
    readonly sandbox: Sandbox,
    readonly baseUrl: string,
    readonly sequence: number,
  ) {
    this.#faulty = journalWithFaults(this.journal);
    this.orders = Array.from({ length: ORDERS }, (_, n) => {
      const reference = this.#reference(n);
      return { reference, references: [], told: 'nothing', unknown: undefined, endpoint: 'withdraw' };
    });
    this.wallet = this.#client();
    this.handler = this.#handler();
  }

  #reference(order: number): string {
    this.#serial += 1;
    return `m${this.sequence}-o${order}-r${this.#serial}`;
  }

  #client(): WalletClient {
    return new WalletClient({
      apiKey: API_KEY,
      baseUrl: this.baseUrl,
      journal: this.#faulty.journal,
      maxRetries: 1,
      timeoutMs: 400,
    });
  }

  #handler(): WebhookHandler {
    return createWebhookHandler({
      verifyWith: this.wallet,
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

  async run(command: Command): Promise<void> {
    switch (command.kind) {
      case 'pay':
        return this.#pay(command);
      case 'crash':
        // Everything in the process is gone; the journal's store and the service remain.
        await this.wallet.close();
        this.wallet = this.#client();
        this.handler = this.#handler();
        for (const order of this.orders) order.unknown = undefined;
        return;
      case 'recover':
        await this.wallet.recover({ userTokenFor: () => USER_TOKEN });
        return;
      case 'resolve':
        return this.#resolve(this.orders[command.order] as Order);
      case 'webhook':
        return this.#webhook(command.forged, command.failFirst);
    }
  }

  async #pay(command: Extract<Command, { kind: 'pay' }>): Promise<void> {
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
    this.#faulty.arm(command.journalFault);
    const signal = command.abortAfterMs === undefined ? undefined : AbortSignal.timeout(command.abortAfterMs);
    try {
      const body = { reference_id: order.reference, amount: 1, currency: 'KES' };
      if (order.endpoint === 'deposit') await this.wallet.deposit(body, { userToken: USER_TOKEN, signal });
      else await this.wallet.withdraw({ ...body, email: 'bob@example.com' }, { signal });
      order.told = 'paid';
    } catch (error) {
      this.#told(order, error);
    } finally {
      this.sandbox.faults.clear();
      this.#faulty.arm(undefined);
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
      await this.wallet.resolveOutcome(order.unknown, { userToken: USER_TOKEN });
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
    // Faults are over: a write that hung lands before the last recovery, as it would in time.
    await this.#faulty.landed();
    await this.wallet.close();
    this.wallet = this.#client();
    await this.wallet.recover({ userTokenFor: () => USER_TOKEN });
    const problems = this.chargedTwice();
    const ledger = new Set(this.sandbox.transactions().map((one) => one.reference_id));
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
    await this.wallet.close();
    return problems;
  }
}
