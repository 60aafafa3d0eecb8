/**
 * Group commit: concurrent writes share one statement, and so one durable commit. On a database
 * that syncs each commit to disk, a journal was bound by one commit per write, two per payment
 * (1,001 payments/s at concurrency 64, whatever the pool size); one statement per batch lifts that.
 *
 * A write that arrives while no batch is running is sent at once, so a lone caller waits no longer
 * than before. Writes that arrive while batches are running wait for one to finish (a bounded wait:
 * one statement) and go together in the next. Each caller's promise settles only after the
 * statement holding its write committed, so "durable before the request is sent" holds.
 */

/** Options of group commit. */
export interface GroupCommitOptions {
  /**
   * At most this many writes in one statement.
   * @default 256
   */
  readonly maxBatch?: number;
  /**
   * At most this many statements running at once, each on its own pooled connection. Writes wait
   * only while all of them are busy.
   * @default 2
   */
  readonly maxInFlight?: number;
}

interface Waiting<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs `write` on batches of items. `keyOf` names the row an item writes: two items of one key
 * never share a statement (a multi-row upsert cannot touch a row twice), and the later one waits
 * for the next, so writes of one row apply in call order. `write` answers one result per item, in
 * order; when it throws, every caller of that batch gets the error.
 */
export class GroupCommit<I, O> {
  readonly #write: (items: readonly I[]) => Promise<readonly O[]>;
  readonly #keyOf: (item: I) => string;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  #queue: Waiting<I, O>[] = [];
  #inFlight = 0;
  /** Keys of the statements running now: a later write of one waits until its statement ends. */
  readonly #busyKeys = new Set<string>();

  constructor(
    write: (items: readonly I[]) => Promise<readonly O[]>,
    keyOf: (item: I) => string,
    options: GroupCommitOptions = {},
  ) {
    this.#write = write;
    this.#keyOf = keyOf;
    this.#maxBatch = options.maxBatch ?? 256;
    this.#maxInFlight = options.maxInFlight ?? 2;
  }

  /** Adds `item` to the next statement; resolves with its result once that statement committed. */
  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#flush();
    });
  }

  #flush(): void {
    while (this.#inFlight < this.#maxInFlight && this.#queue.length > 0) {
      const batch = this.#takeBatch();
      if (batch.length === 0) return;
      this.#inFlight += 1;
      this.#run(batch).finally(() => {
        this.#inFlight -= 1;
        for (const waiting of batch) this.#busyKeys.delete(this.#keyOf(waiting.item));
        this.#flush();
      });
    }
  }

  /**
   * The oldest waiting writes, at most one per key, none of a key being written now, and
   * `maxBatch` in all; the rest keep their order.
   */
  #takeBatch(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    // A key seen once, taken or not, keeps every later write of it out, so writes stay in order.
    const seen = new Set<string>();
    for (const waiting of this.#queue) {
      const key = this.#keyOf(waiting.item);
      if (batch.length < this.#maxBatch && !seen.has(key) && !this.#busyKeys.has(key)) {
        this.#busyKeys.add(key);
        batch.push(waiting);
      } else {
        rest.push(waiting);
      }
      seen.add(key);
    }
    this.#queue = rest;
    return batch;
  }

  async #run(batch: readonly Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.#write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => {
        waiting.resolve(results[index] as O);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
