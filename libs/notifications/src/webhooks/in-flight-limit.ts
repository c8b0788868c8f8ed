/** How many deliveries one worker attempts at once. */
export const DELIVERY_BATCH = 100;
/**
 * Delivery workers per API process. More would not deliver faster on this service's machines (the dispatch sets the pace,
 * docs/performance.md) and, with the limit below, a slow endpoint's batches would hold them all while they wait their turn.
 */
export const DELIVERY_WORKERS = 2;
/**
 * Attempts one process has in flight to one endpoint at most (contract §14): a merchant's receiver gets at most this many
 * concurrent requests from each API process however many deliveries wait; the others of the batch wait their turn. One
 * batch's worth, so a batch never waits on itself.
 */
export const ENDPOINT_IN_FLIGHT = DELIVERY_BATCH;
/**
 * The longest an attempt's job can take: its turn behind the other attempts of the process's batches to the same endpoint
 * (each at most the timeout), then its own. A job still active after it (a worker that died) is run again.
 */
export function deliveryExpirySeconds(timeoutMs: number): number {
  return Math.ceil(timeoutMs / 1000) * Math.ceil((DELIVERY_WORKERS * DELIVERY_BATCH) / ENDPOINT_IN_FLIGHT) + 30;
}

/**
 * At most `limit` tasks of one key running at once (the attempts this process has in flight to one webhook endpoint,
 * contract §14); the others wait in arrival order. Keys without tasks are forgotten.
 */
export class InFlightLimit {
  private readonly keys = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('an in-flight limit is a positive integer');
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let slot = this.keys.get(key);
    if (!slot) this.keys.set(key, (slot = { running: 0, waiting: [] }));
    if (slot.running >= this.limit) await new Promise<void>((resolve) => slot.waiting.push(resolve));
    else slot.running += 1;
    try {
      return await task();
    } finally {
      const next = slot.waiting.shift();
      // The finished task's place goes to the next waiting one; with none waiting, it is freed.
      if (next) next();
      else if (--slot.running === 0) this.keys.delete(key);
    }
  }

  /** Tasks of `key` running now (for tests and metrics). */
  running(key: string): number {
    return this.keys.get(key)?.running ?? 0;
  }
}
