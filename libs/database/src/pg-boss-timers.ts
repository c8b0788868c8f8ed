import { setTimeout as wait } from 'node:timers/promises';

/**
 * pg-boss 10.4 (the latest 10.x) requires `node:timers/promises` inside its
 * `delay` at every call, and its workers' stop loop calls `delay` once a
 * second until they have ended. Under load that loop outlives a Jest suite's
 * environment, which then refuses the require and fails the next suite of
 * the same test worker (seen in full runs, after `signature-v2`). This puts
 * the same function, with the module taken once, in place before pg-boss
 * loads (its modules destructure `delay` when they load): behaviour is
 * pg-boss's own. Imported first by every module that imports pg-boss.
 */
type Delay = Promise<void> & { abort(): void };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require('pg-boss/src/tools') as { delay: (ms: number, error?: string) => Delay };

tools.delay = function delay(ms: number, error?: string): Delay {
  const ac = new AbortController();
  const promise = new Promise<void>((resolve, reject) => {
    wait(ms, null, { signal: ac.signal })
      .then(() => (error ? reject(new Error(error)) : resolve()))
      .catch(() => resolve());
  }) as Delay;
  promise.abort = () => {
    if (!ac.signal.aborted) ac.abort();
  };
  return promise;
};
