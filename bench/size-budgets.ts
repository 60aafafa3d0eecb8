import type { BundleSize } from './bundle-size.js';

/**
 * The bundle-size budgets: deterministic (esbuild, minified, gzip level 9), so CI checks them
 * through `npm run size`; `npm run bench` prints them beside the timed budgets. Each counts one part
 * of its entry's bundle: what loads with it, or the chunks it imports dynamically (see `bundleSize`).
 */
export const SIZE_BUDGETS = {
  loginBundleBytes: {
    entry: 'src/login.ts',
    part: 'loaded',
    limit: 1024,
    unit: 'B',
    what: 'merchant-wallet/login, min+gz',
  },
  // 8,448 B (8.25 KB): 7,736 B before processing leases, which keep an event whose handler died from
  // being answered "duplicate" for days (+380 B), and exact decimal amounts in verification, which
  // no longer match "0x10" with 16 (+160 B). A lost webhook costs more than 256 B of a bundle.
  // 8,576 B: the bounds on a `user_authorized` token and e-mail, the settling path a verified
  // webhook's read-back records (`readFor`), the warning once per unhandled event type and the
  // settlement span's link took it to 8,478 B.
  webhooksBundleBytes: {
    entry: 'src/webhooks/index.ts',
    part: 'loaded',
    limit: 8576,
    unit: 'B',
    what: 'merchant-wallet/webhooks with deps, min+gz',
  },
  // What a browser or edge runtime loads for the whole client: 26,880 B (26.25 KB). 22,069 B before
  // the one-truth rules, which added about 2,500 B: the merchant identity with its synchronous
  // SHA-256 (about 600 B; an identity read on every error needs no await), journal writes bounded by
  // the call's signal and timeout, closing a failed record, calls after an earlier one, and
  // recover()'s windows and reasons; the exact amount rule (sameAmount) added 200 B. Paying by
  // `{ user }` through a token vault added 120 B to the client (the `tokens` option, the e-mail check
  // and the hand-off to the vault); the vault itself is only loaded by who imports createTokenVault.
  // Settlement added about 1,350 B to what every client loads: the onSettled election on the answer
  // and status paths, the client's engine, and the metadata checks; the sweeper itself (2 KB) is a
  // chunk of its own, loaded on the first sweep. The outcome states (accepted, completed, failed:
  // their move rule and the check that a final status comes with its state) added about 150 B.
  // The OpenTelemetry entry's events added about 350 B (26,925 B before): the payment and settlement
  // tracing channels (a `hasSubscribers` check per payment and settlement, and the scope a subscriber
  // runs the traced work in), trace-context headers for traced attempts and the error code of their
  // refused answers. The entry itself, and `@opentelemetry/api`, are in `merchant-wallet/otel` only.
  // The fleet's safety added 400 B (26,925 B to 27,326 B): the sending lease and its renewal, the
  // decision "sent by another call" taken again when the answer arrives, the store's clock in
  // recover(), and the key fingerprint each intent carries.
  // Together with the vault's token check through the calling client (+75 B), `onRefused` on the
  // answer path (+114 B) and the settled-by path each outcome records (+207 B), the client came to
  // 28,269 B. Moving the tracing and the sending-lease renewal into chunks of their own is the way
  // back under 27,136 B.
  // The rest is a little room, so growth is a decision.
  clientBundleBytes: {
    entry: 'bench/entries/client.ts',
    part: 'loaded',
    limit: 28416,
    unit: 'B',
    what: 'whole client with deps (zod), as loaded, min+gz',
  },
  // The Node transport (agents, proxies, CONNECT tunnels, decompression), in a chunk of its own that
  // only Node imports, on the first request. 2,541 B before headers went as an object to an
  // `http.request` an instrumentation wrapped (OpenTelemetry's copies a list into numbered keys, which
  // lost the API key): +62 B.
  nodeTransportChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'lazy',
    limit: 2624,
    unit: 'B',
    what: "client's Node-only transport chunk, loaded on Node, min+gz",
  },
  // The sweeper, loaded on a client's first sweepOnce, supervise or journalHealth. journalHealth's
  // `events` section (an event source's connection, with its option check) added 55 B (2,547 B
  // before); it stays in this lazy chunk rather than in what every client loads.
  sweeperChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'sweeper',
    limit: 2624,
    unit: 'B',
    what: "client's sweeper chunk, loaded on its first sweep, min+gz",
  },
} as const satisfies Record<string, SizeBudget>;

/** A size budget: the entry bundled, the part of its bundle counted, and the most bytes it may take. */
export interface SizeBudget {
  readonly entry: string;
  readonly part: keyof BundleSize;
  readonly limit: number;
  readonly unit: string;
  readonly what: string;
}

export type SizeBudgetName = keyof typeof SIZE_BUDGETS;

/**
 * The published tarball, as `npm pack` reports it: 300,000 B. Source maps made it 884 kB (2.4 MB of
 * maps carrying every source); without them, and without the unused CommonJS build of the CLI, it
 * was 291 kB; the token vault, the transaction-event sources, settlement, the sweeper and journal
 * queries took it to 366 kB unminified; minifying whitespace and syntax (not identifiers) brought it
 * to 326 kB (329 kB with settlement's fleet work). Each module ships as ESM and CommonJS; the typings,
 * which carry the documentation, ship once: each entry's `.d.ts` re-exports its `.d.cts`
 * (scripts/share-typings.ts), which took the tarball to 272 kB. A ceiling so that shipping maps,
 * sources, fixtures or a second copy of the typings again is a decision. The webhook console (forged
 * webhooks, the 18 certify checks, the sandbox UI's page and script, each as ESM and CommonJS) took it
 * from 275 kB to 306 kB; the ceiling is now the 350 kB of DESIGN.md's budget table, which counts the
 * sandbox UI and the OpenAPI documents in. The composition (`merchant-wallet/wallet`), the framework
 * adapters, the OpenTelemetry entry and the doctor took it to 370 kB: 384 kB, until the CLI's
 * commands and the testing entry are minified as the client is.
 */
export const PACKAGE_SIZE_BUDGET = {
  limit: 384_000,
  unit: 'B',
  what: 'npm package, packed (npm pack)',
} as const;
