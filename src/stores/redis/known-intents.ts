/**
 * The intents one Redis journal recorded fresh, by their fixed fields (what a record writes and
 * nothing changes after), so an update of one answers only the fields that change and the client
 * joins the two. An entry is named by the intent's sequence number, which the script checks: an
 * intent recreated under the same reference id (its key deleted) has another, and is answered whole.
 * Bounded, oldest first out; an entry goes once its intent reaches a definite state.
 */
import { DEFINITE_STATES, type PaymentIntent } from '../../journal/types.js';
import { CHANGING_FIELDS, FIXED_FIELDS, intentFromValues, type Value } from './intent-fields.js';

/** How many intents one journal remembers: those between their record and their outcome. */
export const KNOWN_INTENTS_LIMIT = 4_096;

/** One remembered intent: its sequence number and {@link FIXED_FIELDS}' values, as stored. */
export interface KnownIntent {
  readonly seq: string;
  readonly fixed: readonly Value[];
}

/** The fresh records a journal remembers, and how it reads an answer with them. */
export interface KnownIntents {
  /** Remembers an intent recorded fresh as `seq`, with its fixed fields' values as stored. */
  remember(referenceId: string, seq: string, fixed: readonly Value[]): void;
  /** What is remembered of `referenceId` when an update is sent; its `seq` goes with the update. */
  lookup(referenceId: string): KnownIntent | undefined;
  /**
   * Reads the answer of an update sent with `sent` (what {@link lookup} gave then): the changing
   * fields joined to its fixed ones, or a whole intent.
   */
  read(referenceId: string, sent: KnownIntent | undefined, reply: unknown): PaymentIntent | undefined;
}

/** An empty {@link KnownIntents} holding at most `limit` intents. */
export function knownIntents(limit = KNOWN_INTENTS_LIMIT): KnownIntents {
  const known = new Map<string, KnownIntent>();
  return {
    remember(referenceId, seq, fixed) {
      if (known.size >= limit) known.delete(known.keys().next().value as string);
      known.set(referenceId, { seq, fixed });
    },
    lookup(referenceId) {
      return known.get(referenceId);
    },
    read(referenceId, sent, reply) {
      // Only the fields that change: the script found the intent `sent` names.
      const changes = sent !== undefined && Array.isArray(reply) && reply.length === CHANGING_FIELDS.length;
      const intent = changes
        ? intentFromValues([...sent.fixed, ...(reply as Value[])])
        : intentFromValues(reply);
      // Forgotten once it has its outcome, or when the key holds no intent or another one.
      if (
        known.get(referenceId) === sent &&
        (!changes || DEFINITE_STATES.has((intent as PaymentIntent).state))
      )
        known.delete(referenceId);
      return intent;
    },
  };
}
