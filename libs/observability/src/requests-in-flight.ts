import type { ServerResponse } from 'node:http';

/**
 * The requests of one app whose handler has not answered yet. A request
 * counts until its answer is written (`end`), even when its client left
 * before: the handler goes on writing to the database either way, and
 * closing the database under it would cut its work in half (a refund
 * reserved and never sent) and hand a busy connection back to the pool.
 */
export class RequestsInFlight {
  private count = 0;
  private idle: (() => void)[] = [];

  track(response: ServerResponse): void {
    this.count += 1;
    let answered = false;
    const settle = () => this.settle();
    const end = response.end;
    response.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!answered) {
        answered = true;
        settle();
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  }

  /** True once no request is in flight; false if some still are after `timeoutMs`. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<boolean>((resolve) => this.idle.push(() => resolve(true)));
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private settle(): void {
    this.count -= 1;
    if (this.count === 0) for (const resolve of this.idle.splice(0)) resolve();
  }
}
