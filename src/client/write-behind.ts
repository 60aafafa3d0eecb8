/**
 * Journal writes a payment call does not wait for: the outcome of a successful first send. The one
 * durable write a payment must wait for is its intent, before sending; a success's outcome may be
 * written after the caller has its answer, because what a lost write leaves behind is judged right
 * (docs/certainty.md, "What is written behind"): the intent stays `sending` under the call's sending
 * lease, and once the lease ends `recover()` or the sweeper re-sends it and the service answers
 * `reference_already_used`, which records it `accepted`, as the caller was told.
 */

/** The writes still on their way to the store, so a client that closes can wait for them. */
export class WritesBehind {
  readonly #pending = new Set<Promise<unknown>>();

  /** Keeps `write` until it ends; it must never reject (its failure is logged where it is made). */
  add(write: Promise<unknown>): void {
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** How many writes are still on their way. */
  get size(): number {
    return this.#pending.size;
  }

  /** Resolves once every write added so far has ended, landed or not. */
  async drained(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
