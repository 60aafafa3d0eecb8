/**
 * What a client loads only after a crash or a lost answer, in a chunk of its own: `recover()`, the
 * sweeper's re-sends and `resolveOutcome`. A client that only pays never loads it.
 */
export { intentRecoverer, recoverIntents } from './recover.js';
export { resolveUnknown, unknownPayment } from './resolve-outcome.js';
