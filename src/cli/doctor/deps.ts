import type { PaymentJournal } from '../../index.js';

/** What checks may call outside themselves, replaceable in tests. */
export interface DoctorDeps {
  /** Every HTTP request goes through it. @default globalThis.fetch */
  readonly fetch: typeof globalThis.fetch;
  /** This machine's clock. @default Date.now */
  readonly now: () => number;
  /** Resolves a host name; rejects when it does not resolve. @default node:dns lookup */
  readonly lookup: (hostname: string) => Promise<unknown>;
  /** The journal to judge the sweeper by, instead of opening `storeUrl`. */
  readonly journal?: PaymentJournal | undefined;
}
