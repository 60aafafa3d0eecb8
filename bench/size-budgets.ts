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
  // 8,896 B: flood protection of the read-back (one read per transaction id in flight, a bound on reads
  // in flight answered 503 `busy`, the memory of `transaction_not_found` and the checks of their two
  // options) took it to 8,829 B (8,835 B as test/webhooks/bundle.test.ts builds it). Without it a flood of forged events makes one status read each with
  // the merchant's key, which a per-key rate limit turns against the merchant's own payments.
  webhooksBundleBytes: {
    entry: 'src/webhooks/index.ts',
    part: 'loaded',
    limit: 8896,
    unit: 'B',
    what: 'merchant-wallet/webhooks with deps, min+gz',
  },
  // What a browser or edge runtime loads for the whole client: 27,136 B (26.5 KB). 22,069 B before
  // the one-truth rules (the merchant identity with its synchronous SHA-256, calls after an earlier
  // one, the exact amount rule), paying by `{ user }` (+120 B; the vault itself loads only with
  // createTokenVault), settlement's election on the answer and status paths (+1,350 B), the outcome
  // states (+150 B), the OpenTelemetry events (+350 B: the payment and request tracing channels and
  // trace-context headers) and the fleet's key fingerprint. This round took it to 28,269 B; what runs
  // only on some paths now loads in chunks of its own, and the client came to 26,558 B:
  // - the journaled send path (the intent's record and outcome, the sending lease and its renewal,
  //   "sent by another call", refusal settlement and the settled-by path), with the first journaled
  //   payment or status read: a client without a journal, as in a browser or a worker, never loads it;
  // - recover() with its windows and reasons, resolveOutcome's decision table and the sweeper's
  //   re-sends, on the first of them;
  // - the sweeper, on the first sweep; the Node transport, on Node's first request;
  // - the traced paths, on the first call made while anyone listens on the tracing channels.
  // The rest is a little room, so growth is a decision.
  clientBundleBytes: {
    entry: 'bench/entries/client.ts',
    part: 'loaded',
    limit: 27136,
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
  // The sweeper, loaded on a client's first sweepOnce, supervise or journalHealth: 2,547 B, and the
  // journal's clock (126 B), in a chunk the sweeper now shares with recover() rather than in the
  // client, took it to 2,701 B; journalHealth's `events` section (an event source's connection, with
  // its option check) added 55 B, in this lazy chunk rather than in what every client loads; the
  // alarms as one table, with `events_not_listening` and its `notListeningAfterMs` check, 169 B more;
  // a status read written with its release (`releaseDueWith`, or `update` then `releaseDue`) and a
  // failed release reported as that intent's error, where it rejected the pass, 3,094 B in all; a
  // pass that works only within its lease (its re-sends stopped, the rest left), 3,189 B.
  sweeperChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'sweeper',
    limit: 3200,
    unit: 'B',
    what: "client's sweeper chunk, loaded on its first sweep, min+gz",
  },
  // What runs when anyone listens on the SDK's tracing channels (the published contexts of attempts,
  // their trace-context headers and error codes, the subscriber's scope around payments, attempts and
  // settlements), loaded on the first traced call; until then a client only checks `hasSubscribers`.
  tracingChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'tracing',
    limit: 640,
    unit: 'B',
    what: "client's tracing chunk, loaded on the first traced call, min+gz",
  },
  // The journaled send path, loaded with a client's first journaled payment or status read: the
  // intent's record and outcome within the call's bounds, the sending lease and its renewal, the
  // decisions after an earlier call, refusal settlement and the settled-by path (2,209 B); one
  // renewal timer for all of a client's sending leases instead of one per payment: 2,415 B; a failed
  // renewal tried again on the next tick, a lease the journal no longer holds dropped, and a
  // renewSending that throws at once kept inside the timer: 2,548 B.
  journalChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'journal',
    limit: 2560,
    unit: 'B',
    what: "client's journal chunk, on its first journaled call, min+gz",
  },
  // recover() with its windows and reasons, resolveOutcome's decision table and the sweeper's
  // re-sends, loaded on the first of them (2,168 B).
  recoveryChunkBytes: {
    entry: 'bench/entries/client.ts',
    part: 'recovery',
    limit: 2304,
    unit: 'B',
    what: "client's recovery chunk, on its first recover(), min+gz",
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
 * adapters, the OpenTelemetry entry and the doctor took it to 370 kB. The conformance suites' grids
 * of every state pair and of the due rule, the webhook handler's flood gate, the event sources'
 * health, the outcome written behind a payment's answer, and the client split into its journal,
 * recovery and tracing chunks (each in ESM and CommonJS) took it to 386 kB: 392 kB, until the CLI's
 * commands and the testing entry are minified as the client is. The Redis journal's intents read by
 * position, the sweeper's status written with its release (with its conformance checks) and the
 * PostgreSQL record's answer took it to 392.0 kB (392.2 kB as built today). After the build, every
 * module's local names (variables, parameters, module-private bindings) are shortened while each
 * function, class and private method keeps the name a stack trace shows, and the CLI, a program,
 * loses its names too (scripts/build/mangle-locals.ts): 357.5 kB (3 kB of it from the CLI's names). The
 * OpenAPI documents written without indentation (one key a line, so diffs stay readable): 355.9 kB.
 * The PostgreSQL settlement transaction begun with the callback's first statement, and settlements
 * marked in grouped statements: 358.2 kB. The tarball moves by a few hundred bytes with any change,
 * since chunk names are content hashes and the tar's file order (and so what gzip finds to repeat)
 * follows them. The Redis journal's scripts given their field names and positions as literals:
 * 359.2 kB; flat payment ids and one renewal timer for all sending leases: 359.7 kB. Fixes of a
 * round of review (re-sends under their own reference id, a sweep within its lease, the vault's login
 * settings and rewrap checked, unreadable rows counted, each token bound to its first user, the
 * PostgreSQL journal's lock order, data-error retry and answer deadline) and their docs: 364.6 kB.
 * 366 kB, a ceiling a few hundred bytes of chunk order cannot cross by itself. That is 16 kB above
 * DESIGN.md's 350 kB. Gzipped file by file, the rest is
 * the library's code twice, ESM and CommonJS (130 kB and 132 kB), the typings (90 kB, two thirds of it TSDoc), the
 * CLI (24 kB), the README and the OpenAPI documents (15 kB); the rest of the way costs names or
 * comments users see (the sandbox's and conformance suites' function names 2.3 kB, unindented
 * typings 1.2 kB, renamed private members 1.2 kB).
 */
export const PACKAGE_SIZE_BUDGET = {
  limit: 366_000,
  unit: 'B',
  what: 'npm package, packed (npm pack)',
} as const;
