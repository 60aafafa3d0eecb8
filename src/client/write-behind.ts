/**
 * Journal writes a payment call does not wait for: the outcome of a successful first send. The one
 * durable write a payment must wait for is its intent, before sending; a success's outcome may be
 * written after the caller has its answer, because what a lost write leaves behind is judged right
 * (docs/certainty.md, "What is written behind"): the intent stays `sending` under the call's sending
 * lease, and once the lease ends `recover()` or the sweeper re-sends it and the service answers
 * `reference_already_used`, which records it `accepted`, as the caller was told.
 */

/**
 * How long a write behind an answer is held, so that the outcomes of the payments answered meanwhile
 * reach the store together: one grouped statement or one burst of scripts instead of many, while
 * the intents payments wait for go first. Far shorter than the sending lease (30 s), which keeps
 * every re-send away until the write lands.
 */
export const GATHER_MS = 5;

/**
 * The writes still on their way to the store, and the journaled payments still in flight that will
 * write theirs, so a client that closes can wait for them.
 */
export class WritesBehind {
  /** Writes not started yet: they start together when the timer fires, or when the client closes. */
  #gathered: (() => Promise<unknown>)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Writes started and payments tracked, not ended yet. */
  #running = 0;
  /** The `drained()` calls waiting for the writes running now to end. */
  #waiting: (() => void)[] = [];
  /** Counts a started write's end, landed or not: one function for every write, not one each. */
  readonly #ended = () => {
    this.#running -= 1;
    if (this.#running > 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  };

  /**
   * Starts `write` within {@link GATHER_MS}, together with every write added meanwhile, and keeps it
   * until it ends. It must never reject: its failure is logged where it is made.
   */
  add(write: () => Promise<unknown>): void {
    this.#gathered.push(write);
    // Referenced: a process that has nothing else left to do still owes these writes.
    this.#timer ??= setTimeout(() => this.#startGathered(), GATHER_MS);
  }

  /**
   * Keeps a journaled payment in flight until it settles, so that {@link WritesBehind.drained} also
   * waits for the calls still sending and the outcomes they write behind their answers.
   */
  track(payment: Promise<unknown>): void {
    this.#running += 1;
    payment.then(this.#ended, this.#ended);
  }

  #startGathered(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const gathered = this.#gathered;
    this.#gathered = [];
    this.#running += gathered.length;
    for (const start of gathered) start().then(this.#ended, this.#ended);
  }

  /** How many writes are still on their way, started or not. */
  get size(): number {
    return this.#running + this.#gathered.length;
  }

  /**
   * Starts the writes still gathered, without waiting for the timer, and resolves once every write
   * added so far has ended, landed or not (those added meanwhile too).
   */
  async drained(): Promise<void> {
    while (this.size > 0) {
      this.#startGathered();
      if (this.#running > 0) await new Promise<void>((wake) => this.#waiting.push(wake));
    }
  }
}
